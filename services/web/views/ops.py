"""For operators and their probes: ``/healthz`` (the process answers), ``/readyz`` (Elasticsearch
reachable and the alias present, within its own shorter budget) and ``/metrics`` (Prometheus,
internal clients only). Never rate-limited, never cached.
"""

from __future__ import annotations

from flask import Blueprint, jsonify, request

from .. import extensions
from ..errors import error_response
from ..http import metrics
from ..http.proxy import is_internal
from ..policy import Budget, Limit, policy

bp = Blueprint("ops", __name__)
PROBE = {"max_age": None, "limit": Limit.NONE}


@bp.get("/healthz")
@policy(**PROBE)
def healthz():
    return jsonify(status="ok")


@bp.get("/readyz")
@policy(**PROBE, budget=Budget.READY)
def readyz():
    try:
        ready = extensions.reads().ready()
    except Exception:  # noqa: BLE001 - any failure means "not ready", never a 500
        ready = False
    if not ready:
        resp = jsonify(status="unavailable", detail="Elasticsearch unreachable or the index alias is missing")
        resp.status_code = 503
        return resp
    return jsonify(status="ready", index=extensions.settings().index)


@bp.get("/metrics")
@policy(**PROBE)
def scrape():
    """Loopback and private-network clients only (the address the proxy handling resolved)."""
    if not is_internal(request.remote_addr):
        return error_response(403, "metrics are for the internal network only", as_json=True)
    resp = metrics.exposition(extensions.figures())
    resp.headers["Cache-Control"] = "no-store"
    return resp
