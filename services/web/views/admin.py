"""Admin API: start and watch a rebuild; list, follow, unfollow and check followed sources. Talks to the indexer
only through Celery task names (the followed sources it reads through the search layer, as the public page does).

Disabled (404) unless ``PAPERLIST_ADMIN_TOKEN`` is set; every call needs
``Authorization: Bearer <token>``.
"""

from __future__ import annotations

import hmac
import re

from celery.exceptions import TimeoutError as CeleryTimeout
from flask import Blueprint, abort, jsonify, request

from services import task_names
from services.search.errors import InvalidRequest
from services.search.limits import SOURCE_ID_PATTERN
from services.search.records.followed import InvalidSource, new_source

from .. import extensions
from ..errors import error_response
from ..policy import policy
from ..render import answers
from ..render import openapi as doc
from ..urls import absolute_url
from .inputs import ReindexOptions, SourceToFollow, json_body

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


@bp.get("/sources")
@policy(**ADMIN)
@doc.operation("adminSources", "The followed sources with their failures, last errors and refused changes, and the "
               "corpus passes' state", secured=True, answer="AdminSources", errors=[401, 404])
def sources():
    try:
        passes = _ask(task_names.PASSES_STATE, alias=extensions.settings().index)
    except CeleryTimeout:
        passes = None
    return jsonify(answers.admin_sources_json(extensions.reads().followed_sources(), passes))


@bp.post("/sources")
@policy(**ADMIN)
@doc.operation("followSource", "Follow a source: a paperlists file polled on a schedule and ingested when it changes",
               secured=True, body=SourceToFollow, answer="AdminSource", status=201, errors=[401, 404, 409, 413])
def follow():
    body = json_body(SourceToFollow)
    try:
        source = new_source(body.url, body.venue_years, body.interval, not body.partial)
    except InvalidSource as exc:
        raise InvalidRequest("body", str(exc)) from None
    answer = _edit("add", source.to_document())
    if answer["status"] == "exists":
        return error_response(409, f"{source.url} is already followed")
    resp = jsonify(answers.admin_sources_json([source], None)["sources"][0])
    resp.status_code = 201
    return resp


@bp.delete("/sources/<source_id>")
@policy(**ADMIN)
@doc.operation("unfollowSource", "Stop following a source (its papers stay)", secured=True, answer=None, status=204,
               params=[doc.SOURCE_ID], errors=[401, 404])
def unfollow(source_id: str):
    if _edit("remove", _source_id(source_id))["status"] != "removed":
        abort(404, description="no followed source has that id")
    return "", 204


@bp.post("/sources/<source_id>/check")
@policy(**ADMIN)
@doc.operation("checkSource", "Poll a followed source now, whatever its schedule (a task to watch)", secured=True,
               answer="ReindexQueued", status=202, params=[doc.SOURCE_ID], errors=[401, 404])
def check(source_id: str):
    wanted = _source_id(source_id)
    found = next((s for s in extensions.reads().followed_sources() if s.id == wanted), None)
    if found is None:
        abort(404, description="no followed source has that id")
    settings = extensions.settings()
    with extensions.redis().guarded():
        pending = extensions.celery().send_task(task_names.POLL_SOURCE, args=[settings.index, found.url, True],
                                                queue=settings.queue)
    resp = jsonify(answers.reindex_queued_json({"task_id": pending.id, "status": "queued"},
                                               absolute_url("admin.task", task_id=pending.id)))
    resp.status_code = 202
    return resp


def _source_id(value: str) -> str:
    if not re.fullmatch(SOURCE_ID_PATTERN, value):
        raise InvalidRequest("source_id", "must be a followed source's id (40 hexadecimal digits)")
    return value


def _ask(task: str, **kwargs: object) -> dict:
    """A worker's answer to ``task`` within :data:`ANSWER_TIMEOUT` (CeleryTimeout past it)."""
    settings = extensions.settings()
    with extensions.redis().guarded():
        pending = extensions.celery().send_task(task, kwargs=kwargs, queue=settings.queue)
        return pending.get(timeout=ANSWER_TIMEOUT)


def _edit(action: str, what: object) -> dict:
    """Add (a source's document) or remove (an id) a followed source through a worker; 503 when none answers."""
    try:
        return _ask(task_names.FOLLOW_EDIT, alias=extensions.settings().index, action=action, what=what)
    except CeleryTimeout:
        abort(503, description="no indexer worker answered; is one running?")
