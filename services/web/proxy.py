"""The client's address from ``X-Forwarded-For``, but only as far as the trusted front set it.

nginx fronts gunicorn in ``paperlist up`` and compose (``PAPERLIST_TRUSTED_PROXIES=1``);
with gunicorn exposed directly (0) the header is ignored, so a client cannot pick its
address to dodge its rate limit. Only the address is taken: the host and scheme of
absolute URLs come from ``PAPERLIST_PUBLIC_URL``.
"""

from __future__ import annotations

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix


def register(app: Flask) -> None:
    hops = app.config["SETTINGS"].trusted_proxies
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=0, x_host=0, x_port=0, x_prefix=0)
