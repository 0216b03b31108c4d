"""JSON logs with a request id, and one access-log line per request.

The id comes from the front's ``X-Request-ID`` (nginx sets it) when it looks like an id,
else one is made; it is returned in ``X-Request-ID`` and added to every log record
written while the request runs, so one request's lines can be found across services.
"""

from __future__ import annotations

import logging
import re
import sys
import time
import uuid

from flask import Flask, Response, g, has_request_context, request
from pythonjsonlogger.json import JsonFormatter

from . import result_cache

HEADER = "X-Request-ID"
_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
access_log = logging.getLogger("paperlist.access")


class RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = g.get("request_id") if has_request_context() else None
        return True


def configure_logging(level: int = logging.INFO) -> None:
    """JSON lines on stderr for the root logger; called by the app factory, once per process."""
    root = logging.getLogger()
    if any(getattr(h, "paperlist_json", False) for h in root.handlers):
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter("{asctime}{levelname}{name}{message}", style="{",
                                       rename_fields={"asctime": "time", "levelname": "level", "name": "logger"}))
    handler.addFilter(RequestIdFilter())
    handler.paperlist_json = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    if root.level == logging.NOTSET or root.level > level:
        root.setLevel(level)


def elapsed_seconds() -> float | None:
    started = g.get("request_started")
    return None if started is None else time.perf_counter() - started


def register(app: Flask) -> None:
    @app.before_request
    def start() -> None:
        g.request_started = time.perf_counter()
        given = request.headers.get(HEADER, "")
        g.request_id = given if _ID.fullmatch(given) else uuid.uuid4().hex

    @app.after_request
    def finish(resp: Response) -> Response:
        request_id = g.get("request_id") or uuid.uuid4().hex
        resp.headers[HEADER] = request_id
        elapsed = elapsed_seconds()
        access_log.info("request", extra={
            "method": request.method, "path": request.path,
            "route": request.url_rule.rule if request.url_rule else None,
            "status": resp.status_code,
            "duration_ms": None if elapsed is None else round(elapsed * 1000, 2),
            "cache": result_cache.cache_state(), "remote_addr": request.remote_addr,
        })
        return resp
