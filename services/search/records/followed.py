"""A followed source (issue 47): a paperlists file the indexer polls on a schedule, and what it last found.

Why a record of its own: the registry is written by the indexer (each poll's outcome) and by the
operator (``paperlist sources``, the admin API), and read by the web's public freshness page, which
may not import the indexer. It lives in a side index beside the papers, ``<alias>-followed`` (one
document a source, its id a digest of the URL), like ``<alias>-sources`` and ``<alias>-maps``: an
alias swap leaves it alone and it is backed up with the data. Reading and writing that index is
:mod:`services.search.engine.followed_store`'s.

A source is one URL of a paperlists file (http, https, or a local path for an operator's own lists)
and the venue-years it feeds; it is *complete* when the file is the whole list of those venue-years,
so papers it no longer lists may be pruned (within the plausible drop, :data:`MAX_DROP`).
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime, timedelta, timezone
from typing import Any

from services.search.limits import MAX_SOURCE_URL

DEFAULT_INTERVAL_S = 6 * 3600    # the default: every six hours
MIN_INTERVAL_S = 10              # the tests poll every few seconds; an operator's list, hours
MAX_INTERVAL_S = 30 * 24 * 3600
JITTER = 0.1                     # each next check is moved by up to this share of the interval, so
                                 # 364 sources seeded at once do not all poll in the same minute
MAX_DROP = 0.2                   # a file listing fewer than (1 - this) of its last records is refused whole
FAILING_AFTER = 3                # consecutive failures that make a source's row red on the freshness page
BACKOFF_BASE_S = 60              # after a failure: 1, 2, 4, ... minutes, never more than the interval
OUTCOMES = ("new", "unchanged", "ingested", "refused", "failed")

MAPPINGS: dict[str, Any] = {
    "dynamic": "strict",
    "properties": {
        "url": {"type": "keyword"},
        "venue_years": {"type": "keyword"},     # "iclr:2025"
        "interval_s": {"type": "integer"},
        "complete": {"type": "boolean"},
        "added_at": {"type": "date"},
        "checked_at": {"type": "date"},
        "changed_at": {"type": "date"},
        "next_check": {"type": "date"},
        "etag": {"type": "keyword", "index": False},
        "last_modified": {"type": "keyword", "index": False},
        "content_hash": {"type": "keyword", "index": False},
        "records": {"type": "integer"},
        "papers": {"type": "integer"},
        "outcome": {"type": "keyword"},
        "failures": {"type": "integer"},
        "last_error": {"type": "text", "index": False},
        "alert": {"type": "text", "index": False},
    },
}


def source_id(url: str) -> str:
    return hashlib.sha1(url.encode()).hexdigest()


def now_utc() -> datetime:
    return datetime.now(timezone.utc).replace(microsecond=0)


def iso(when: datetime | None) -> str | None:
    return when.isoformat() if when else None


def parse_time(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def venue_year_key(conference: str, year: int) -> str:
    return f"{conference}:{year}"


@dataclass(frozen=True)
class FollowedSource:
    """One followed source and what its last poll found (times are ISO 8601 in UTC)."""

    url: str
    venue_years: tuple[str, ...] = ()
    interval_s: int = DEFAULT_INTERVAL_S
    complete: bool = True
    added_at: str | None = None
    checked_at: str | None = None     # the last poll that got an answer or failed
    changed_at: str | None = None     # the last poll that found new content (and ingested it)
    next_check: str | None = None
    etag: str | None = None
    last_modified: str | None = None
    content_hash: str | None = None
    records: int | None = None        # records in the file as last ingested
    papers: int | None = None         # papers indexed from it as last ingested
    outcome: str = "new"              # the last poll's: see OUTCOMES
    failures: int = 0                 # consecutive
    last_error: str | None = None
    alert: str | None = None          # a refused change, until a later poll ingests one
    extra: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def id(self) -> str:
        return source_id(self.url)

    @property
    def failing(self) -> bool:
        """Red on the freshness page: this many polls in a row failed."""
        return self.failures >= FAILING_AFTER

    def due(self, at: datetime) -> bool:
        nxt = parse_time(self.next_check)
        return nxt is None or nxt <= at

    def to_document(self) -> dict[str, Any]:
        doc = asdict(self)
        doc.pop("extra")
        doc["venue_years"] = list(self.venue_years)
        return doc

    @classmethod
    def from_document(cls, doc: dict[str, Any]) -> FollowedSource:
        known = {k: v for k, v in doc.items() if k in MAPPINGS["properties"]}
        return cls(**{**known, "venue_years": tuple(doc.get("venue_years") or ())})

    def updated(self, **changes: Any) -> FollowedSource:
        return replace(self, **changes)


def next_check(at: datetime, interval_s: int, failures: int = 0, rng: random.Random | None = None) -> datetime:
    """When to poll next: the interval with jitter, or after ``failures`` in a row the exponential back-off
    (``BACKOFF_BASE_S`` doubled per failure, capped at the interval)."""
    if failures:
        wait = min(BACKOFF_BASE_S * 2 ** (failures - 1), interval_s)
    else:
        wait = interval_s
    spread = (rng or random).uniform(-JITTER, JITTER) * wait
    return at + timedelta(seconds=max(1.0, wait + spread))


class InvalidSource(ValueError):
    """A source an operator asked to follow that cannot be: ``str()`` says why (a 400, an ``error:`` line)."""


_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_interval(value: str | int | None) -> int:
    """``6h``, ``30m``, ``2d``, ``90s`` or whole seconds, within the allowed range."""
    if value is None or value == "":
        return DEFAULT_INTERVAL_S
    text = str(value).strip().lower()
    unit = _UNITS.get(text[-1:], None)
    number = text[:-1] if unit else text
    if not number.isdigit():
        raise InvalidSource(f"interval '{str(value)[:40]}' is not a duration such as 6h, 30m, 2d or 3600")
    seconds = int(number) * (unit or 1)
    if not MIN_INTERVAL_S <= seconds <= MAX_INTERVAL_S:
        raise InvalidSource(f"interval must be between {MIN_INTERVAL_S} s and {MAX_INTERVAL_S // 86400} days")
    return seconds


def new_source(url: str, venue_years: list[str] | tuple[str, ...] = (), interval: str | int | None = None,
               complete: bool = True, *, allow_paths: bool = False) -> FollowedSource:
    """A source to follow as an operator gave it, checked (an http(s) URL; a local path only where allowed)."""
    url = (url or "").strip()
    if not url.startswith(("http://", "https://")) and not (allow_paths and url.startswith("/")):
        raise InvalidSource(f"'{url[:200]}' is not an http(s) URL" + (" or an absolute path" if allow_paths else ""))
    if len(url) > MAX_SOURCE_URL or any(c.isspace() for c in url):
        raise InvalidSource(f"the URL must be at most {MAX_SOURCE_URL:,} characters, without spaces")
    keys = []
    for value in venue_years:
        conference, _, year = str(value).strip().partition(":")
        if not conference or not year.isdigit() or not 1900 <= int(year) <= 2100:
            raise InvalidSource(f"venue-year '{str(value)[:40]}' is not CONFERENCE:YEAR, such as iclr:2025")
        keys.append(venue_year_key(conference.lower(), int(year)))
    return FollowedSource(url=url, venue_years=tuple(keys), interval_s=parse_interval(interval), complete=complete,
                          added_at=iso(now_utc()))
