"""One conditional fetch of a followed source: what the server says, bounded in time and size.

Why its own fetch and not the ingest's reader: a poll must cost one conditional request when nothing
changed (``If-None-Match`` / ``If-Modified-Since``: a 304 carries no body), must say *why* it failed
(timeout, TLS, a 4xx/5xx, a connection refused) so the failure can be counted and shown, and must
never hang: a server that sends a byte a minute is cut at :data:`TOTAL_TIMEOUT` whatever the read
timeout says. A local path (an operator's own lists) is read with its modification time standing in
for ``Last-Modified``.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from email.utils import formatdate
from pathlib import Path

import requests

from services.indexer.sources import is_url

CONNECT_TIMEOUT = 5.0
READ_TIMEOUT = 20.0
TOTAL_TIMEOUT = 60.0       # the whole download, however slowly the bytes come
MAX_BYTES = 512 * 1024 * 1024
CHUNK = 1 << 16
USER_AGENT = "paperlist-follow/1 (+https://github.com/papercopilot/paperlists)"


class FetchFailed(RuntimeError):
    """The source could not be fetched; ``str()`` is the reason shown to operators (no traceback)."""


@dataclass(frozen=True)
class Fetched:
    """What a poll's request found: nothing new (``body`` None: a 304), or the file and its validators."""

    status: int
    body: bytes | None
    etag: str | None
    last_modified: str | None

    @property
    def content_hash(self) -> str | None:
        return hashlib.sha256(self.body).hexdigest() if self.body is not None else None


def fetch(url: str, etag: str | None = None, last_modified: str | None = None, *,
          connect_timeout: float = CONNECT_TIMEOUT, read_timeout: float = READ_TIMEOUT,
          total_timeout: float = TOTAL_TIMEOUT) -> Fetched:
    """The source at ``url``, asked conditionally with the validators of its last answer."""
    if not is_url(url):
        return _local(url, last_modified)
    headers = {"User-Agent": USER_AGENT, "Accept-Encoding": "gzip"}
    if etag:
        headers["If-None-Match"] = etag
    if last_modified:
        headers["If-Modified-Since"] = last_modified
    deadline = time.monotonic() + total_timeout
    try:
        with requests.get(url, headers=headers, timeout=(connect_timeout, read_timeout), stream=True,
                          allow_redirects=True) as resp:
            if resp.status_code == 304:
                return Fetched(304, None, resp.headers.get("ETag") or etag,
                               resp.headers.get("Last-Modified") or last_modified)
            if resp.status_code != 200:
                raise FetchFailed(f"HTTP {resp.status_code} {resp.reason or ''}".strip())
            chunks, size = [], 0
            for chunk in resp.iter_content(CHUNK):
                size += len(chunk)
                if size > MAX_BYTES:
                    raise FetchFailed(f"larger than {MAX_BYTES >> 20} MB")
                if time.monotonic() > deadline:
                    raise FetchFailed(f"timeout: the download took over {total_timeout:.0f} s")
                chunks.append(chunk)
            return Fetched(200, b"".join(chunks), resp.headers.get("ETag"), resp.headers.get("Last-Modified"))
    except requests.exceptions.SSLError as exc:
        raise FetchFailed(f"TLS error: {_short(exc)}") from None
    except requests.exceptions.Timeout as exc:
        raise FetchFailed(f"timeout: {_short(exc)}") from None
    except requests.exceptions.ConnectionError as exc:
        raise FetchFailed(f"connection failed: {_short(exc)}") from None
    except requests.RequestException as exc:
        raise FetchFailed(f"{exc.__class__.__name__}: {_short(exc)}") from None


def _local(path: str, last_modified: str | None) -> Fetched:
    """A local file: unchanged when its modification time is the one last seen (no read at all)."""
    try:
        stamp = formatdate(Path(path).stat().st_mtime, usegmt=True)
        if stamp == last_modified:
            return Fetched(304, None, None, stamp)
        return Fetched(200, Path(path).read_bytes(), None, stamp)
    except OSError as exc:
        raise FetchFailed(f"{path}: {exc.strerror or exc}") from None


def _short(exc: Exception) -> str:
    return str(exc)[:300]
