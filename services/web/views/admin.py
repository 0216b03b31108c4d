"""Admin API: start and watch a rebuild. Talks to the indexer only through Celery task names.

Disabled (404) unless ``PAPERLIST_ADMIN_TOKEN`` is set; every call needs
``Authorization: Bearer <token>``.
"""

from __future__ import annotations

import hmac

from celery.exceptions import TimeoutError as CeleryTimeout
from flask import Blueprint, abort, jsonify, request

from services import task_names

from .. import extensions
from ..errors import error_response
from ..policy import policy
from ..render import answers
from ..render import openapi as doc
from ..urls import absolute_url
from .inputs import ReindexOptions, json_body

bp = Blueprint("admin", __name__, url_prefix="/api/v1/admin")

ANSWER_TIMEOUT = 1.5  # seconds a worker has to answer: within the 2 s any request may take, then 503
ADMIN = {"max_age": None, "cached_reads": False}  # never stored, never answered from the cache


@bp.before_request
def authenticate():
    token = extensions.settings().admin_token
    if not token:
        abort(404)
    given = request.headers.get("Authorization", "")
    if not given.startswith("Bearer ") or not hmac.compare_digest(given[7:].strip().encode(), token.encode()):
        return error_response(401, "a valid bearer token is required",
                              headers={"WWW-Authenticate": 'Bearer realm="paperlist-admin"'})
    # Fail fast with a 503 when Redis (broker and results) is down or hung; Celery would retry
    # for ~20 s. Redis going away later, during a call, is a 503 too (services.web.errors).
    extensions.redis().ping()


@bp.post("/reindex")
@policy(**ADMIN)
@doc.operation("startReindex", "Start a zero-downtime rebuild", secured=True, body=ReindexOptions,
               answer="ReindexQueued", status=202, errors=[401, 404, 409, 413])
def start_reindex():
    from_sources = json_body(ReindexOptions).from_sources
    settings = extensions.settings()
    try:
        with extensions.redis().guarded():
            pending = extensions.celery().send_task(task_names.REQUEST_REINDEX,
                                          kwargs={"alias": settings.index, "from_sources": from_sources},
                                          queue=settings.queue)
            answer = pending.get(timeout=ANSWER_TIMEOUT)
    except CeleryTimeout:
        answer = {"status": "pending", "task_id": pending.id}
    if answer.get("status") == "refused":
        return error_response(409, answer.get("message", ""))
    resp = jsonify(answers.reindex_queued_json(answer, absolute_url("admin.task", task_id=answer["task_id"])))
    resp.status_code = 202
    return resp


@bp.get("/reindex")
@policy(**ADMIN)
@doc.operation("reindexProgress", "The current or last rebuild: its phase and progress", secured=True,
               answer="ReindexProgress", errors=[401, 404])
def reindex_state():
    settings = extensions.settings()
    try:
        with extensions.redis().guarded():
            pending = extensions.celery().send_task(task_names.REINDEX_STATUS, kwargs={"alias": settings.index},
                                          queue=settings.queue)
            return jsonify(answers.reindex_progress_json(pending.get(timeout=ANSWER_TIMEOUT)))
    except CeleryTimeout:
        abort(503, description="no indexer worker answered; is one running?")


@bp.get("/tasks/<task_id>")
@policy(**ADMIN)
@doc.operation("adminTask", "A task the admin API started (a status_url): its state, and its result once ready",
               secured=True, answer="TaskState", params=[doc.TASK_ID], errors=[401, 404])
def task(task_id: str):
    with extensions.redis().guarded():
        result = extensions.celery().AsyncResult(task_id[:64])
        payload = {"task_id": result.id, "state": result.state}
        if result.ready():
            payload["result"] = result.result if result.successful() else str(result.result)
    return jsonify(answers.task_json(payload))
