"""A record's identity: its paper id, venue and year — cheap, read before anything else.

The id hashes conference, year and the source's own id (or, lacking one, the normalised title),
so it is stable across re-ingests and reindexes; an ingest drops a second record with the same
id in one run before any is normalised.
"""

from __future__ import annotations

import hashlib
import re

from services.indexer.cleaning.text import clean_text
from services.indexer.sources import Origin, Rejected, reader_named
from services.indexer.sources.base import SourceKey
from services.search.catalogue import venues
from services.search.records.model import title_key


def identity(record: object, origin: Origin) -> tuple[str, str, int]:
    """``(paper_id, conference, year)`` — cheap, so the reader can spot duplicates early.

    The id hashes conference, year and the source's own id (or, lacking one, the
    normalised title), so it is stable across re-ingests and reindexes.
    """
    return key_identity(reader_named(origin.format).key_fields(record), origin)


def key_identity(record: SourceKey, origin: Origin) -> tuple[str, str, int]:
    """:func:`identity` of a neutral record's key fields."""
    conference = _conference(record, origin)
    year = _year(record, origin)
    title = record.title
    if not isinstance(title, str):
        raise Rejected("title is missing" if title is None else f"title is a {type(title).__name__}, not text")
    source_id = record.id
    if isinstance(source_id, (int, float)) and not isinstance(source_id, bool):
        source_id = str(source_id)
    if isinstance(source_id, str) and source_id.strip():
        key = "id:" + source_id.strip()
    else:
        tkey = title_key(clean_text(title))
        if not tkey:
            raise Rejected("title is empty")
        key = "title:" + tkey
    digest = hashlib.blake2b(f"{conference}|{year}|{key}".encode(), digest_size=6).hexdigest()
    return f"{conference}-{year}-{digest}", conference, year


def _conference(record: SourceKey, origin: Origin) -> str:
    for value in record.conferences:
        if isinstance(value, str) and value.strip():
            slug = venues.canonical_slug(re.sub(r"\s*(19|20)\d\d\s*$", "", value))
            if slug:
                return slug
    if origin.conference:
        return origin.conference
    raise Rejected("conference unknown: neither the record nor the file name names it")


def _year(record: SourceKey, origin: Origin) -> int:
    value = record.year
    if value is None or value == "":
        if origin.year is None:
            raise Rejected("year unknown: neither the record nor the file name gives it")
        return origin.year
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise Rejected(f"year is a {type(value).__name__}, not a number")
    text = str(value).strip()
    if not (text.isascii() and text.isdigit()) or not 1950 <= int(text) <= 2100:
        raise Rejected(f"year {text[:20]!r} is not a year")
    return int(text)
