"""Admin API: start and watch a rebuild. Talks to the indexer only through Celery task names.

Disabled (404) unless ``PAPERLIST_ADMIN_TOKEN`` is set; every call needs
``Authorization: Bearer <token>``.
"""

from __future__ import annotations

import hmac
import logging

from celery import Celery
from celery.exceptions import TimeoutError as CeleryTimeout
from flask import Blueprint, abort, current_app, jsonify, request
from kombu.exceptions import OperationalError
from redis.exceptions import RedisError
from werkzeug.exceptions import ServiceUnavailable

from services.search.errors import InvalidRequest

from .errors import error_response
from .redis_guard import redis_guard
from .urls import absolute_url

bp = Blueprint("admin", __name__, url_prefix="/api/v1/admin")

ANSWER_TIMEOUT = 1.5  # seconds a worker has to answer: within the 2 s any request may take, then 503
BROKER_TIMEOUT = 1.0  # seconds to reach Redis before the admin API answers 503
log = logging.getLogger(__name__)


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
    _require_broker()


def _require_broker() -> None:
    """Fail fast with a 503 when Redis (broker and results) is down or hung; Celery would retry for ~20 s."""
    redis_guard().ping()  # short timeouts and a breaker (see .redis_guard); raises RedisUnavailable -> 503


class BrokerUnavailable(ServiceUnavailable):
    description = "The task queue (Redis) is unavailable; please retry shortly."


@bp.errorhandler(OperationalError)
@bp.errorhandler(RedisError)
def broker_lost(exc: Exception):
    """Redis went away during the call (after the check above): still a 503, not a 500."""
    log.warning("admin API: Redis unavailable: %s", exc)
    return error_response(503, BrokerUnavailable.description, headers={"Retry-After": "5"})


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
    answer["status_url"] = absolute_url("admin.task", task_id=answer["task_id"])
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
