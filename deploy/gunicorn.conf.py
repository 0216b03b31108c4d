"""gunicorn settings for the paperlist web service (local stack and Docker).

Values come from the environment so one file serves both; see README "Configuration".
"""

import os
from pathlib import Path

bind = f"{os.environ.get('PAPERLIST_HOST', '127.0.0.1')}:{os.environ.get('PAPERLIST_PORT', '8000')}"
workers = int(os.environ.get("PAPERLIST_WEB_WORKERS", "2"))
threads = int(os.environ.get("PAPERLIST_WEB_THREADS", "4"))
worker_class = "gthread"
timeout = 30
graceful_timeout = 20
keepalive = 5
max_requests = 5000
max_requests_jitter = 500
accesslog = None  # the app logs one JSON line per request, with its request id (services/web/request_log.py)
errorlog = "-"
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")

# Prometheus metrics of all workers are summed through files in this directory
# (prometheus-client's multiprocess mode); set before the workers import the app.
_home = Path(os.environ.get("PAPERLIST_HOME") or Path(__file__).resolve().parent.parent)
os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", str(_home / "run" / "prometheus"))


def on_starting(server):
    """A fresh start counts from zero: drop the previous run's metric files."""
    path = Path(os.environ["PROMETHEUS_MULTIPROC_DIR"])
    path.mkdir(parents=True, exist_ok=True)
    for stale in path.glob("*.db"):
        stale.unlink(missing_ok=True)


def child_exit(server, worker):
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)
