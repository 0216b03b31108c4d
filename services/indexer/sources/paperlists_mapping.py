"""paperlists fields -> the format-neutral record (see :mod:`.base`): a map, never a cleaning.

What is peculiar to paperlists lives here: lists joined with ``;`` (SIGGRAPH's authors with
``,``), values HTML-escaped, one affiliation for the whole paper, ``+`` between one author's
affiliations, affiliations aligned by index (``aff_unique_index`` into ``aff_unique_norm``),
review criteria written as ``<criterion>`` and ``<criterion>_avg``, the several fields that may
hold the conference or a link, and the author's own fields that are never the paper's links
(``vocab/paperlists.toml``). Every value stays as written; :mod:`services.indexer.paper` cleans.
"""

from __future__ import annotations

import html
import re
import tomllib
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from services.search.records.model import REVIEW_CRITERIA

from .base import (
    Alignment,
    Rejected,
    SourceAuthors,
    SourceKey,
    SourceLinks,
    SourcePrior,
    SourceRecord,
    SourceReview,
)

VOCAB = Path(__file__).with_name("vocab") / "paperlists.toml"
CONFERENCE_FIELDS = ("conference", "conf", "venue")
CITATIONS = "gs_citation"  # Google Scholar's count, where Paper Copilot looked it up
# Where a code or project link is looked for first; then in the abstract, then in every other field.
LINK_FIELDS = ("github", "code", "project", "abstract", "tldr")
CODE_FIELDS = ("github", "code")  # the source's own "this is the code" fields
SITE_FIELDS = ("site", "url_paper", "oa")  # the paper's page, best first
OPENREVIEW = "https://openreview.net"  # relative pdf/supplementary paths point there


def key_fields(data: object) -> SourceKey:
    if not isinstance(data, dict):
        raise Rejected(f"record is a {type(data).__name__}, not an object")
    return SourceKey(data.get("id"), data.get("title"), tuple(data.get(key) for key in CONFERENCE_FIELDS),
                     data.get("year"))


def fields(data: object) -> SourceRecord:
    key = key_fields(data)
    assert isinstance(data, dict)
    bibtex = _text(data, "bibtex")
    return SourceRecord(
        key=key,
        authors=_authors(data),
        abstract=_text(data, "abstract"),
        tldr=_text(data, "tldr"),
        keywords=_list(data.get("keywords")),
        primary_area=_text(data, "primary_area").replace("_", " "),
        status=_text(data, "status"),
        track=_text(data, "track"),
        award=data.get("award"),
        links=_links(data),
        pages=_text(data, "pages") or bibtex_field(bibtex, "pages"),
        volume=_text(data, "volume") or bibtex_field(bibtex, "volume"),
        publisher=bibtex_field(bibtex, "publisher"),
        bibtex=bibtex,
        citations=data.get(CITATIONS),
        reviews=tuple(_review(data, criterion) for criterion in REVIEW_CRITERIA),
    )


def prior_fields(data: object) -> SourcePrior:
    """The rating and the citation count — cheap."""
    if not isinstance(data, dict):
        return SourcePrior(SourceReview("rating", None, None), None)
    return SourcePrior(_review(data, "rating"), data.get(CITATIONS))


def _review(data: dict, criterion: str) -> SourceReview:
    return SourceReview(criterion, data.get(criterion), data.get(f"{criterion}_avg"))


def _links(record: dict) -> SourceLinks:
    return SourceLinks(
        site=tuple(record.get(key) for key in SITE_FIELDS),
        openreview=record.get("openreview"),
        pdf=record.get("pdf"),
        supplementary=record.get("supp") or record.get("supplementary_material"),
        code=tuple(record.get(key) for key in CODE_FIELDS),
        project=record.get("project"),
        arxiv=record.get("arxiv"),
        doi=(record.get("doi"), bibtex_field(record.get("bibtex"), "doi")),
        texts=tuple(_link_texts(record)),
        base=OPENREVIEW,
    )


def bibtex_field(entry: object, name: str) -> str:
    """One field's value in a source's BibTeX text (``name = {v}``, ``"v"`` or a number); its
    braces dropped. The source's entry is never shown: only such values, escaped again on output."""
    if not isinstance(entry, str) or name not in entry.lower():
        return ""
    match = re.search(rf"(?<![\w-]){name}\s*=\s*(?:\{{((?:[^{{}}]|\{{[^{{}}]*\}})*)\}}|\"([^\"]*)\"|(\w+))",
                      entry, re.IGNORECASE)
    if not match:
        return ""
    return next(g for g in match.groups() if g is not None).replace("{", "").replace("}", "").strip()


@cache
def _own_fields() -> frozenset[str]:
    """The fields of each author's own (their pages, ids, e-mail): never the paper's links."""
    with VOCAB.open("rb") as f:
        return frozenset(tomllib.load(f)["links"]["skip"])


def _link_texts(record: dict) -> Iterator[object]:
    """The record's values where links may be, :data:`LINK_FIELDS` first; never the authors' own fields."""
    skip = _own_fields()
    yield from (record.get(key) for key in LINK_FIELDS)
    yield from (value for key, value in record.items() if key not in skip and key not in LINK_FIELDS)


def _text(record: dict, key: str) -> str:
    value = record.get(key)
    return value if isinstance(value, str) else ""


def _list(value: object) -> tuple[str, ...]:
    """A ``;``-joined list (or a JSON list of strings) as its items, as written."""
    if isinstance(value, str):
        return tuple(value.split(";"))
    if isinstance(value, list):
        return tuple(v for v in value if isinstance(v, str))
    return ()


def _authors(record: dict) -> SourceAuthors:
    """The author places, their ids, and the ways affiliations are given."""
    raw = record.get("author")
    if raw is not None and not isinstance(raw, (str, list)):
        raise Rejected(f"author is a {type(raw).__name__}, not text")
    names = author_names(raw) if isinstance(raw, str) else _list(raw)
    aff = record.get("aff")
    entries = _list(html.unescape(aff) if isinstance(aff, str) else aff)
    unique = _list(record.get("aff_unique_norm"))
    alignments = [Alignment(tuple(tuple(entry.split("+")) for entry in entries), whole_paper=len(entries) == 1)]
    if (indexed := _indexed(_list(record.get("aff_unique_index")), unique)) is not None:
        alignments.append(Alignment(indexed))
    paper = tuple(part for entry in entries for part in entry.split("+")) if entries else unique
    return SourceAuthors(names=names, profiles=_list(record.get("authorids")), orcids=_list(record.get("orcid")),
                         alignments=tuple(alignments), paper_affiliations=paper)


def author_names(raw: str) -> tuple[str, ...]:
    """The places of an author list, as written: ``"A;B"`` or SIGGRAPH's ``"A, B, C"``; decoded before it
    is split, so the ``;`` of ``O&#x27;Brien`` neither splits the name nor hides a comma-joined list."""
    text = html.unescape(raw)
    return tuple(text.split(";" if ";" in text or "," not in text else ","))


def _indexed(indices: tuple[str, ...], unique: tuple[str, ...]) -> tuple[tuple[str, ...], ...] | None:
    """``aff_unique_index`` entries (``"0+1;2;0"``) resolved against ``aff_unique_norm``; None when one
    points nowhere."""
    out = []
    for entry in indices:
        parts = [p.strip() for p in html.unescape(entry).split("+") if p.strip()]
        if not all(p.isdigit() and int(p) < len(unique) for p in parts):
            return None
        out.append(tuple(unique[int(p)] for p in parts))
    return tuple(out)
