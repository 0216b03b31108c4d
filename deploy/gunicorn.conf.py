"""gunicorn settings for the paperlist web service (local stack and Docker).

gunicorn always runs behind nginx (``paperlist up`` and docker-compose), which holds
slow and idle clients, so the timeouts here only guard against a stuck worker.
Values come from :class:`services.settings.Settings` (the environment), so one file
serves both; see README "Configuration".

Worker class: gthread, kept until a benchmark compares it with gevent under the
search load (bench/); the app's 2 s request budget bounds how long a thread is held.
"""

import os

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
max_requests = 5000
max_requests_jitter = 500
accesslog = "-"
errorlog = "-"
# nginx is the only client: trust its X-Forwarded-* (loopback locally, the compose network in Docker).
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
