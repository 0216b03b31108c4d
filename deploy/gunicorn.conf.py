"""gunicorn settings for the paperlist web service (local stack and Docker).

gunicorn always runs behind nginx (``paperlist up`` and docker-compose), which holds
slow and idle clients, so the timeouts here only guard against a stuck worker.
Values come from :class:`services.settings.Settings` (the environment), so one file
serves both; see README "Configuration".

Worker class: gthread, 8 threads per worker (``PAPERLIST_WEB_THREADS``), chosen with
``bench/capacity/load.py`` (Zipf mix, 32 users, 30 s runs, full corpus, 2 workers on 2 cores):

    model              req/s (runs)        p50 ms       p99 ms        errors
    gthread, 4 thr     71, 75              420, 340     1700, 1700    4, 0
    gthread, 8 thr     75, 94              350, 290     1600, 1200    0, 0
    gthread, 16 thr    82, 76, 85          81, 150, 190 2000, 2200, 1700  3, 8, 2
    gevent, 100 conn   70, 82              230, 260     2100, 1600    3, 0

Throughput is bounded by Elasticsearch on the shared cores whatever the model. More
threads keep cache hits from queueing behind misses (a lower median), but past 8 the
extra concurrent misses push some searches over the app's 2 s budget (503s). gevent
gains nothing here and would monkey-patch every library the app uses.
"""

import os
from pathlib import Path

from services.settings import load_settings

_settings = load_settings()

bind = _settings.web_bind or f"{_settings.host}:{_settings.port}"
workers = _settings.web_workers
threads = _settings.web_threads
worker_class = "gthread"
# A request never legitimately runs past the app's budget (2 s search, streamed export
# chunks); 30 s only reaps a worker that is truly stuck.
timeout = 30
graceful_timeout = 15
# Above nginx's upstream keepalive reuse, so nginx never sends on a connection gunicorn closed.
keepalive = 20
# gunicorn's longest request line (its maximum): above what nginx passes on (large_client_header_buffers,
# services.search.limits.MAX_REQUEST_LINE), so a line nginx took is never gunicorn's bare 414.
limit_request_line = 8190
max_requests = 5000
max_requests_jitter = 500
accesslog = None  # the app logs one JSON line per request, with its request id (services/web/http/access_log.py)
errorlog = "-"
# nginx is the only client: trust its X-Forwarded-* (loopback locally, the compose network in Docker).
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
