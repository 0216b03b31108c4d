"""Raw paperlists records -> typed :class:`Paper` objects, or a :class:`Rejected` with the reason.

The format is loose: fields vary by conference, lists are ``;``-joined strings, empty
strings stand for missing values. Only what a paper cannot do without (a title, a
conference and a year) rejects a record; odd optional fields are dropped, not fatal.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass

from services.search import conferences
from services.search.catalogue import catalogue
from services.search.model import Author, Paper, title_key

from .cleaning import clean_text, dedupe, label_case, split_list, strip_html
from .links import extract_links
from .topics import derive_topics

MAX_TITLE = 1000
MAX_ABSTRACT = 20000
MAX_AUTHORS = 500
_YEAR_IN_NAME = re.compile(r"(19|20)\d\d")


class Rejected(ValueError):
    """A record that cannot become a paper; ``str()`` is the reason shown to operators."""


@dataclass(frozen=True)
class Origin:
    """Where a record came from: conference and year guessed from the file name, and its place."""

    source: str
    position: int
    conference: str = ""
    year: int | None = None


def origin_from_path(source: str, position: int) -> Origin:
    """``.../nips/nips2018.json.gz`` -> conference ``neurips``, year 2018."""
    name = source.rstrip("/").rsplit("/", 1)[-1]
    stem = re.sub(r"\.json(\.gz)?$", "", name, flags=re.IGNORECASE)
    years = list(_YEAR_IN_NAME.finditer(stem))
    year = int(years[-1].group(0)) if years else None
    conf = stem[: years[-1].start()] if years else stem
    if not conf.strip("-_ ") and "/" in source:
        conf = source.rstrip("/").rsplit("/", 2)[-2]
    return Origin(source, position, conferences.canonical_slug(conf) if conf else "", year)


def map_status(raw: str) -> str:
    """Small vocabulary for the status facet (rules: catalogue/statuses.toml); the raw
    value is kept beside it."""
    return catalogue().statuses.facet_status(raw)


def identity(record: dict, origin: Origin) -> tuple[str, str, int]:
    """``(paper_id, conference, year)`` — cheap, so the reader can spot duplicates early.

    The id hashes conference, year and the source's own id (or, lacking one, the
    normalised title), so it is stable across re-ingests and reindexes.
    """
    if not isinstance(record, dict):
        raise Rejected(f"record is a {type(record).__name__}, not an object")
    conference = _conference(record, origin)
    year = _year(record, origin)
    title = record.get("title")
    if not isinstance(title, str):
        raise Rejected("title is missing" if title is None else f"title is a {type(title).__name__}, not text")
    source_id = record.get("id")
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


def normalise(record: dict, origin: Origin) -> Paper:
    """The whole record as a :class:`Paper`; raises :class:`Rejected` with the reason."""
    paper_id, conference, year = identity(record, origin)
    title = strip_html(record["title"])[:MAX_TITLE]
    if not title:
        raise Rejected("title is empty")
    authors = _authors(record)
    abstract = strip_html(_text(record, "abstract"))[:MAX_ABSTRACT]
    keywords = dedupe(split_list(record.get("keywords")))[:50]
    primary_area = clean_text(_text(record, "primary_area").replace("_", " "))
    status_raw = clean_text(_text(record, "status"))
    track = label_case(clean_text(_text(record, "track")))
    fields = dict(
        paper_id=paper_id,
        conference=conference,
        conference_name=conferences.label(conference),
        year=year,
        title=title,
        authors=authors,
        abstract=abstract,
        tldr=strip_html(_text(record, "tldr"))[:2000],
        keywords=keywords,
        primary_area=primary_area,
        topics=derive_topics(title, abstract, keywords, primary_area, conference),
        track="main" if not track or track.lower() == "main" else track,
        status=map_status(status_raw),
        status_raw=status_raw,
        award=_award(record.get("award")),
        links=extract_links(record),
        bibtex=_text(record, "bibtex").strip()[:10000],
        citations=_citations(record.get("gs_citation")),
    )
    content_hash = hashlib.sha256(json.dumps(
        {k: v.model_dump() if hasattr(v, "model_dump") else v for k, v in fields.items()},
        sort_keys=True, default=lambda o: o.model_dump(), ensure_ascii=False,
    ).encode()).hexdigest()[:32]
    return Paper(**fields, source=origin.source, position=origin.position, content_hash=content_hash)


def _text(record: dict, key: str) -> str:
    value = record.get(key)
    return value if isinstance(value, str) else ""


def _conference(record: dict, origin: Origin) -> str:
    for key in ("conference", "conf", "venue"):
        value = record.get(key)
        if isinstance(value, str) and value.strip():
            slug = conferences.canonical_slug(re.sub(r"\s*(19|20)\d\d\s*$", "", value))
            if slug:
                return slug
    if origin.conference:
        return origin.conference
    raise Rejected("conference unknown: neither the record nor the file name names it")


def _year(record: dict, origin: Origin) -> int:
    value = record.get("year")
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


def _authors(record: dict) -> list[Author]:
    raw = record.get("author")
    if raw is not None and not isinstance(raw, (str, list)):
        raise Rejected(f"author is a {type(raw).__name__}, not text")
    if isinstance(raw, str) and ";" not in raw and "," in raw:
        raw = raw.replace(",", ";")  # SIGGRAPH-style "A, B, C"
    names = _undouble(split_list(raw))
    ids = _undouble(split_list(record.get("authorids")))
    orcids = split_list(record.get("orcid"))
    # "+" inside one entry separates several affiliations of the same author.
    affs = ["; ".join(p.strip() for p in a.split("+") if p.strip()) for a in split_list(record.get("aff"))]
    if len(affs) == 1 and len(names) > 1:
        affs = affs * len(names)  # one affiliation given for the whole paper
    aligned = len(affs) == len(names)
    authors: list[Author] = []
    seen: set[str] = set()
    for i, name in enumerate(names[:MAX_AUTHORS]):
        if not name or name.casefold() in seen:
            continue
        seen.add(name.casefold())
        author_id = _at(ids, i)
        authors.append(Author(
            name=name,
            affiliation=_at(affs, i) if aligned else "",
            orcid=_at(orcids, i),
            author_id="" if "@" in author_id else author_id,  # never publish e-mail addresses
        ))
    return authors


def _undouble(items: list[str]) -> list[str]:
    """Some sources list every author twice ("A;B;A;B"); keep one copy so lists align."""
    half = len(items) // 2
    if half and len(items) % 2 == 0 and items[:half] == items[half:]:
        return items[:half]
    return items


def _at(items: list[str], i: int) -> str:
    return items[i] if i < len(items) else ""


def _award(value: object) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        return value.strip().lower() not in ("", "false", "no", "0", "none")
    return False


def _citations(value: object) -> int | None:
    """Citation count when it is a sane non-negative number (sources use -1 for unknown)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        text = value.strip()
        value = int(text) if text.isascii() and text.isdigit() else None
    if isinstance(value, (int, float)) and 0 <= value < 10**9:
        return int(value)
    return None
