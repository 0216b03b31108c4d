"""The client's address: from ``X-Forwarded-For`` only as far as the trusted front set it, and
whether it is internal (loopback, private networks) or exempt from rate limits (configured networks).

nginx fronts gunicorn in ``paperlist up`` and compose (``PAPERLIST_TRUSTED_PROXIES=1``);
with gunicorn exposed directly (0) the header is ignored, so a client cannot pick its
address to dodge its rate limit. Only the address is taken: the host and scheme of
absolute URLs come from ``PAPERLIST_PUBLIC_URL``.
"""

from __future__ import annotations

import ipaddress

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix


def install(app: Flask) -> None:
    hops = app.config["SETTINGS"].trusted_proxies
    if hops:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=0, x_host=0, x_port=0, x_prefix=0)


def _ip(address: str | None) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(address or "")
    except ValueError:
        return None


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def in_networks(address: str | None, networks: tuple[Network, ...]) -> bool:
    """Whether ``address`` is in one of ``networks`` (PAPERLIST_RATE_LIMIT_EXEMPT: never rate-limited)."""
    ip = _ip(address)
    return bool(ip) and any(ip in net for net in networks)


def is_internal(address: str | None) -> bool:
    """This host or a private network (who may scrape ``/metrics``)."""
    ip = _ip(address)
    return bool(ip and (ip.is_loopback or ip.is_private))
