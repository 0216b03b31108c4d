"""Store URLs may carry credentials (``http://elastic:pw@es:9200``); messages show them without."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit


def redact(url: str) -> str:
    """``url`` with any password replaced by ``***`` (each host of a comma-separated list)."""
    return ",".join(_redact_one(part.strip()) for part in url.split(","))


def _redact_one(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urlunsplit(parts._replace(netloc=f"{parts.username or ''}:***@{host}"))
