"""ETags that cost no render: built from the canonical request and the index generation.

An answer of a view that the edge may keep (``edge=True`` in its policy) depends only on
what was asked (path, canonical query, host, whether the body is gzipped) and on the data
(the index generation, :mod:`services.search.engine.generation`) and the code that renders it
(the release). So its tag can be computed before the view runs, and a conditional request
(a browser's, or nginx's revalidation of an expired edge entry, ``proxy_cache_revalidate``)
is answered 304 without rendering and without Elasticsearch. A change of the data bumps
the generation, a deployment changes the release: either changes every tag.

Inside a generation's settling window the data may not all be searchable yet; answers
made then get no canonical tag (their body's hash instead), so they are never confirmed
by a 304 later.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

RELEASE_SUFFIXES = (".py", ".html", ".xml", ".css", ".js", ".toml")  # what renders an answer


def release_tag(roots: Iterable[Path]) -> str:
    """A digest of the code and templates under ``roots``: the same on every worker of one release."""
    digest = hashlib.blake2b(digest_size=8)
    for root in roots:
        for path in sorted(p for p in root.rglob("*") if p.suffix in RELEASE_SUFFIXES and p.is_file()):
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def canonical_etag(*, release: str, generation: int, host: str, path: str, query: str, gzipped: bool) -> str:
    """The tag (without quotes) of the answer to this canonical request at this generation."""
    text = "\x1f".join((release, str(generation), host, path, query, "gzip" if gzipped else "identity"))
    return "e" + hashlib.blake2b(text.encode("utf-8", "surrogateescape"), digest_size=12).hexdigest()


def matches(if_none_match: str | None, tag: str) -> bool:
    """Whether an ``If-None-Match`` header names ``tag`` (weak comparison, as RFC 9110 says for it)."""
    if not if_none_match:
        return False
    for candidate in if_none_match.split(","):
        candidate = candidate.strip()  # "*" is left to the view (only it knows whether the page exists)
        if candidate.startswith("W/"):
            candidate = candidate[2:]
        if candidate.strip('"') == tag and candidate.startswith('"') and candidate.endswith('"'):
            return True
    return False
