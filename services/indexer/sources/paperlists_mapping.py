"""paperlists fields -> the format-neutral record (see :mod:`.base`).

What is peculiar to paperlists lives here: lists joined with ``;``, authors listed
twice, one affiliation for the whole paper, ``+`` between one author's affiliations,
affiliations not aligned with the authors (``aff_unique_norm``), review scores,
the several fields that may hold the conference or a link. Names lose footnote marks
and affiliations get one display form here (:mod:`services.indexer.cleaning.names`), as the fields are read.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from functools import lru_cache

from services.indexer.cleaning.links import arxiv_url, doi_url, hosted_links, link_hosts, safe_url
from services.indexer.cleaning.names import author_key, canonical_affiliation, clean_author_name, split_names
from services.indexer.cleaning.reviews import review_scores
from services.indexer.cleaning.text import clean_text, split_list
from services.search.records.model import REVIEW_CRITERIA, Author, Links, Publication

from .base import Rejected

MAX_AUTHORS = 500
CONFERENCE_FIELDS = ("conference", "conf", "venue")
CITATIONS = "gs_citation"  # Google Scholar's count, where Paper Copilot looked it up
_PAGE_RANGE = re.compile(r"\s*(\w+)\s*(?:-+|–|—)\s*(\w+)\s*")
# Where a code or project link is looked for first; then in the abstract, then in every other field.
LINK_FIELDS = ("github", "code", "project", "abstract", "tldr")
CODE_FIELDS = ("github", "code")  # the source's own "this is the code" fields
OPENREVIEW = "https://openreview.net"  # relative pdf/supplementary paths point there


def key_fields(data: object) -> dict:
    if not isinstance(data, dict):
        raise Rejected(f"record is a {type(data).__name__}, not an object")
    return {"id": data.get("id"), "title": data.get("title"), "year": data.get("year"),
            "conferences": [data.get(key) for key in CONFERENCE_FIELDS]}


def fields(data: object) -> dict:
    record = key_fields(data)
    assert isinstance(data, dict)
    authors, affiliations = _authors(data)
    record.update(
        authors=authors,
        affiliations=affiliations,  # the paper's, when the source does not align them with authors
        abstract=_text(data, "abstract"),
        tldr=_text(data, "tldr"),
        keywords=split_list(data.get("keywords")),
        primary_area=_text(data, "primary_area").replace("_", " "),
        status=_text(data, "status"),
        track=_text(data, "track"),
        award=data.get("award"),
        links=extract_links(data),
        publication=_publication(data),
        bibtex=_text(data, "bibtex"),
        citations=data.get(CITATIONS),
        reviews=review_scores(data, REVIEW_CRITERIA),  # "rating" with "rating_avg", ...
    )
    return record


def prior_fields(data: object) -> dict:
    """What the prominence prior ranks within a venue-year (``reviews`` of the rating only, ``citations``) — cheap."""
    if not isinstance(data, dict):
        return {"reviews": [], "citations": None}
    return {"reviews": review_scores(data, ("rating",)), "citations": data.get(CITATIONS)}


def extract_links(record: dict) -> Links:
    site = safe_url(record.get("site")) or safe_url(record.get("url_paper")) or safe_url(record.get("oa"))
    openreview = safe_url(record.get("openreview"))
    if not openreview and "openreview.net" in site:
        openreview = site
    supp_field = record.get("supp") or record.get("supplementary_material")
    hosted = hosted_links(_link_texts(record))
    declared = next((url for url in map(safe_url, (record.get(k) for k in CODE_FIELDS))
                     if url and link_hosts().declared_code(url)), "")
    code = declared or hosted.get("code", "")  # the source's own code field first
    project = hosted.get("project") or safe_url(record.get("project"))  # a lab's own page is the project's too
    return Links(
        pdf=safe_url(record.get("pdf"), base=OPENREVIEW),
        site=site,
        openreview=openreview,
        code=code,
        project="" if project == code else project,
        arxiv=arxiv_url(record.get("arxiv")),
        doi=doi_url(record.get("doi")) or doi_url(bibtex_field(record.get("bibtex"), "doi")),
        supplementary=safe_url(supp_field, base=OPENREVIEW),
    )


def _publication(record: dict) -> Publication:
    """Pages, volume and publisher from the record's own fields, else from its BibTeX entry's."""
    entry = record.get("bibtex")
    pages = clean_text(_text(record, "pages") or bibtex_field(entry, "pages"))
    if _PAGE_RANGE.fullmatch(pages):
        pages = _PAGE_RANGE.sub(r"\1--\2", pages)
    return Publication(pages=pages[:40], volume=clean_text(_text(record, "volume") or bibtex_field(entry, "volume"))[:20],
                       publisher=clean_text(bibtex_field(entry, "publisher"))[:200])


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


def _link_texts(record: dict) -> Iterator[object]:
    """The record's values where links may be, :data:`LINK_FIELDS` first; never the authors' own fields."""
    skip = link_hosts().skip_fields
    yield from (record.get(key) for key in LINK_FIELDS)
    yield from (value for key, value in record.items() if key not in skip and key not in LINK_FIELDS)


def _text(record: dict, key: str) -> str:
    value = record.get(key)
    return value if isinstance(value, str) else ""


def _authors(record: dict) -> tuple[list[Author], list[str]]:
    """The authors, each with an affiliation where the source aligns them; else the paper's affiliations."""
    raw = record.get("author")
    if raw is not None and not isinstance(raw, (str, list)):
        raise Rejected(f"author is a {type(raw).__name__}, not text")
    if isinstance(raw, str):  # "A;B" or SIGGRAPH-style "A, B, C"; marks and broken accents cleaned
        names = _undouble(split_names(raw, keep_empty=True))
    else:
        names = _undouble([clean_author_name(name) for name in split_list(raw)])
    ids = _undouble(split_list(record.get("authorids")))
    orcids = split_list(record.get("orcid"))
    affs, paper_affs = _affiliations(record, len(names) if any(names) else 0)  # no names: the paper's list
    authors: list[Author] = []
    seen: set[str] = set()
    for i, name in enumerate(names[:MAX_AUTHORS]):
        key = author_key(name) if name else ""
        if not key or key in seen:
            continue
        seen.add(key)
        author_id = _at(ids, i)
        authors.append(Author(
            name=name,
            affiliation=_at(affs, i),
            orcid=_at(orcids, i),
            author_id="" if "@" in author_id else author_id,  # never publish e-mail addresses
        ))
    return authors, paper_affs


def _affiliations(record: dict, authors: int) -> tuple[list[str], list[str]]:
    """``(per author, per paper)``: one affiliation per author where the source aligns them, else [] and
    the paper's list.

    ``aff`` aligns when it has one entry per author (or one for the whole paper);
    ``aff_unique_norm`` lists the paper's distinct institutions, which ``aff_unique_index``
    (``"0+1;2;0"``) may align.
    """
    aff = record.get("aff")
    entries = [_affiliation(a) for a in split_list(html.unescape(aff) if isinstance(aff, str) else aff)]
    unique = [_display_affiliation(a) for a in split_list(record.get("aff_unique_norm"))]
    if len(entries) == 1 and authors > 1:
        entries = entries * authors  # one affiliation given for the whole paper
    if authors and len(entries) == authors and any(entries):
        return entries, []
    indexed = _indexed(split_list(record.get("aff_unique_index")), unique)
    if authors and len(indexed) == authors and any(indexed):
        return indexed, []
    listed = [part for entry in entries for part in entry.split("; ")] or unique
    return [], list(dict.fromkeys(a for a in listed if a))


def _indexed(indices: list[str], unique: list[str]) -> list[str]:
    """``aff_unique_index`` entries resolved against ``aff_unique_norm``; [] when one points nowhere."""
    out = []
    for entry in indices:
        parts = [p.strip() for p in entry.split("+") if p.strip()]
        if not all(p.isdigit() and int(p) < len(unique) for p in parts):
            return []
        out.append("; ".join(dict.fromkeys(unique[int(p)] for p in parts if unique[int(p)])))
    return out


def _affiliation(entry: str) -> str:
    """One author's affiliations in display form; ``+`` inside one entry separates several."""
    parts = (_display_affiliation(part) for part in entry.split("+"))
    return "; ".join(dict.fromkeys(part for part in parts if part))


@lru_cache(maxsize=1 << 16)
def _display_affiliation(text: str) -> str:
    """Cached: a corpus repeats a few thousand institutions many times."""
    return canonical_affiliation(text).replace(";", ",")


def _undouble(items: list[str]) -> list[str]:
    """Some sources list every author twice ("A;B;A;B"); keep one copy so lists align."""
    half = len(items) // 2
    if half and len(items) % 2 == 0 and items[:half] == items[half:]:
        return items[:half]
    return items


def _at(items: list[str], i: int) -> str:
    return items[i] if i < len(items) else ""
