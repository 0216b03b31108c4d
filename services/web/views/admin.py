"""Admin API: start and watch a rebuild. Talks to the indexer only through Celery task names.

Disabled (404) unless ``PAPERLIST_ADMIN_TOKEN`` is set; every call needs
``Authorization: Bearer <token>``.
"""

from __future__ import annotations

import hmac

from celery.exceptions import TimeoutError as CeleryTimeout
from flask import Blueprint, abort, jsonify, request

from services.search.errors import InvalidRequest

from .. import extensions
from ..errors import error_response
from ..policy import policy
from ..urls import absolute_url

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
def start_reindex():
    body = request.get_json(silent=True) if request.data else {}
    if not isinstance(body, dict):
        raise InvalidRequest("body", "expected a JSON object such as {\"from_sources\": false}")
    from_sources = body.get("from_sources", False)
    if not isinstance(from_sources, bool):
        raise InvalidRequest("from_sources", "must be true or false")
    settings = extensions.settings()
    try:
        with extensions.redis().guarded():
            pending = extensions.celery().send_task("paperlist.request_reindex",
                                          kwargs={"alias": settings.index, "from_sources": from_sources},
                                          queue=settings.queue)
            answer = pending.get(timeout=ANSWER_TIMEOUT)
    except CeleryTimeout:
        answer = {"status": "pending", "task_id": pending.id}
    if answer.get("status") == "refused":
        return error_response(409, answer.get("message", ""))
    answer["status_url"] = absolute_url("admin.task", task_id=answer["task_id"])
    resp = jsonify(answer)
    resp.status_code = 202
    return resp


@bp.get("/reindex")
@policy(**ADMIN)
def reindex_state():
    settings = extensions.settings()
    try:
        with extensions.redis().guarded():
            pending = extensions.celery().send_task("paperlist.reindex_status", kwargs={"alias": settings.index},
                                          queue=settings.queue)
            return jsonify(pending.get(timeout=ANSWER_TIMEOUT) or {"phase": "none"})
    except CeleryTimeout:
        abort(503, description="no indexer worker answered; is one running?")


@bp.get("/tasks/<task_id>")
@policy(**ADMIN)
def task(task_id: str):
    with extensions.redis().guarded():
        result = extensions.celery().AsyncResult(task_id[:64])
        payload = {"task_id": result.id, "state": result.state}
        if result.ready():
            payload["result"] = result.result if result.successful() else str(result.result)
    return jsonify(payload)
