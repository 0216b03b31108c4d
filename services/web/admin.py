"""Admin API: start and watch a rebuild. Talks to the indexer only through Celery task names.

Disabled (404) unless ``PAPERLIST_ADMIN_TOKEN`` is set; every call needs
``Authorization: Bearer <token>``.
"""

from __future__ import annotations

import hmac

from celery import Celery
from celery.exceptions import TimeoutError as CeleryTimeout
from flask import Blueprint, abort, current_app, jsonify, request, url_for

from services.search.errors import InvalidRequest

from .redis_guard import redis_guard

bp = Blueprint("admin", __name__, url_prefix="/api/v1/admin")

ANSWER_TIMEOUT = 10


def _celery() -> Celery:
    return current_app.extensions["paperlist.celery"]


@bp.before_request
def authenticate():
    token = current_app.config["SETTINGS"].admin_token
    if not token:
        abort(404)
    given = request.headers.get("Authorization", "")
    if not given.startswith("Bearer ") or not hmac.compare_digest(given[7:].strip().encode(), token.encode()):
        resp = jsonify({"error": {"code": "unauthorized", "message": "a valid bearer token is required"}})
        resp.status_code = 401
        resp.headers["WWW-Authenticate"] = 'Bearer realm="paperlist-admin"'
        return resp
    # Every admin call goes through Redis (the broker): a dead one is a fast 503, not a 500.
    redis_guard().ping()


@bp.post("/reindex")
def start_reindex():
    body = request.get_json(silent=True) if request.data else {}
    if not isinstance(body, dict):
        raise InvalidRequest("body", "expected a JSON object such as {\"from_sources\": false}")
    from_sources = body.get("from_sources", False)
    if not isinstance(from_sources, bool):
        raise InvalidRequest("from_sources", "must be true or false")
    settings = current_app.config["SETTINGS"]
    try:
        with redis_guard().guarded():
            pending = _celery().send_task("paperlist.request_reindex",
                                          kwargs={"alias": settings.index, "from_sources": from_sources},
                                          queue=settings.queue)
            answer = pending.get(timeout=ANSWER_TIMEOUT)
    except CeleryTimeout:
        answer = {"status": "pending", "task_id": pending.id}
    if answer.get("status") == "refused":
        resp = jsonify({"error": {"code": "conflict", "message": answer.get("message", "")}})
        resp.status_code = 409
        return resp
    answer["status_url"] = url_for("admin.task", task_id=answer["task_id"], _external=True)
    resp = jsonify(answer)
    resp.status_code = 202
    return resp


@bp.get("/reindex")
def reindex_state():
    settings = current_app.config["SETTINGS"]
    try:
        with redis_guard().guarded():
            pending = _celery().send_task("paperlist.reindex_status", kwargs={"alias": settings.index},
                                          queue=settings.queue)
            return jsonify(pending.get(timeout=ANSWER_TIMEOUT) or {"phase": "none"})
    except CeleryTimeout:
        abort(503, description="no indexer worker answered; is one running?")


@bp.get("/tasks/<task_id>")
def task(task_id: str):
    with redis_guard().guarded():
        result = _celery().AsyncResult(task_id[:64])
        payload = {"task_id": result.id, "state": result.state}
        if result.ready():
            payload["result"] = result.result if result.successful() else str(result.result)
    return jsonify(payload)
