"""The registry's first sources: the corpus's upstream files, listed in the repository (``data/followed/``).

Why a list in the repository and not a crawl of the upstream: which files the corpus was built from is
a fact of this corpus, reviewed like code; the list names each file by its path under a base URL, so
the tests (``PAPERLIST_FOLLOW_BASE``) point the very same list at a server of their own on loopback and
no request leaves the machine. Seeding fills an *empty* registry only: a source the operator removed is
not brought back by the next ``paperlist up``.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from elasticsearch import Elasticsearch

from services.indexer.sources import origin_from_path
from services.search.engine import followed_store
from services.search.records.followed import FollowedSource, iso, now_utc, venue_year_key


class SeedError(ValueError):
    """The seed list cannot be read; ``str()`` says why."""


def sources_of(path: Path, base: str = "", interval_s: int | None = None) -> list[FollowedSource]:
    """The followed sources a seed list names (``base``, when given, replaces the list's own)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise SeedError(f"{path}: {exc}") from None
    root = base or data.get("base", "")
    interval = interval_s or int(float(data.get("interval_hours", 6)) * 3600)
    now = iso(now_utc())
    out = []
    for name in data.get("files", []):
        url = root.rstrip("/") + "/" + str(name).lstrip("/") if root else str(name)
        origin = origin_from_path(url, 0)
        venue_years = (venue_year_key(origin.conference, origin.year),) if origin.conference and origin.year else ()
        out.append(FollowedSource(url=url, venue_years=venue_years, interval_s=interval, added_at=now))
    return out


def seed(es: Elasticsearch, alias: str, path: Path, base: str = "", interval_s: int | None = None) -> int:
    """Follow the list's sources when the registry of ``alias`` is empty; how many were added."""
    index = followed_store.index_of(alias)
    if followed_store.all_sources(es, index):
        return 0
    sources = sources_of(path, base, interval_s)
    followed_store.save_many(es, index, sources)
    return len(sources)
