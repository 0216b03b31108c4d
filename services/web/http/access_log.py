"""JSON logs with a request id, and one access-log line per request.

The id comes from the front's ``X-Request-ID`` (nginx sets it) when it looks like an id,
else one is made (:mod:`..requestctx`); it is returned in ``X-Request-ID`` and added to
every log record written while the request runs, so one request's lines can be found
across services.
"""

from __future__ import annotations

import logging
import sys

from flask import Response, has_request_context, request
from pythonjsonlogger.json import JsonFormatter

from .. import requestctx

access_log = logging.getLogger("paperlist.access")


class RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = requestctx.current().request_id if has_request_context() else None
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


def finish(resp: Response, state: requestctx.RequestState) -> None:
    """Return the request id and write the access line."""
    resp.headers[requestctx.REQUEST_ID_HEADER] = state.request_id
    access_log.info("request", extra={
        "method": request.method, "path": request.path,
        "route": request.url_rule.rule if request.url_rule else None,
        "status": resp.status_code, "duration_ms": round(state.elapsed * 1000, 2),
        "queued_ms": round(state.queued * 1000, 1),
        "cache": state.cache_outcome, "remote_addr": request.remote_addr,
    })
