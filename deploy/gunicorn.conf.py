"""gunicorn settings for the paperlist web service (local stack and Docker).

Values come from the environment so one file serves both; see README "Configuration".
"""

import os

bind = f"{os.environ.get('PAPERLIST_HOST', '127.0.0.1')}:{os.environ.get('PAPERLIST_PORT', '8000')}"
workers = int(os.environ.get("PAPERLIST_WEB_WORKERS", "2"))
threads = int(os.environ.get("PAPERLIST_WEB_THREADS", "4"))
worker_class = "gthread"
timeout = 30
graceful_timeout = 20
keepalive = 5
max_requests = 5000
max_requests_jitter = 500
accesslog = "-"
errorlog = "-"
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
