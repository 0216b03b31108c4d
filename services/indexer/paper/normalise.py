"""A source record -> typed :class:`Paper`, or a :class:`Rejected` with the reason: the one builder that cleans.

The record comes with its :class:`Origin`; the origin's reader maps the record's own fields onto
the format-neutral record (:class:`~services.indexer.sources.base.SourceRecord`, values as written),
and everything here cleans that, the same way whatever the format: the identity (:mod:`.identity`),
the authors and affiliations (:mod:`.authors`), the links (:mod:`.links`), the text fields, the
status word, the topics and the paper's own names. Only what a paper cannot do without (a title, a
conference and a year) rejects a record; odd optional fields are dropped, not fatal.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping

from services.indexer.cleaning.hyphenation import repair as repair_hyphenation
from services.indexer.cleaning.keywords import merge_keywords
from services.indexer.cleaning.reviews import review_scores
from services.indexer.cleaning.text import clean_text, clean_title, dedupe, label_case, strip_html
from services.indexer.sources import Origin, Rejected, origin_from_path, reader_named
from services.indexer.sources.base import SourceRecord
from services.search.catalogue import STATUSES, catalogue, venues
from services.search.records.model import Paper, Publication, ReviewScore
from services.search.records.prominence import VenueScale, prominence, scale_key

from .authors import authors_of
from .identity import identity, key_identity
from .links import links_of
from .own_names import own_names
from .topics import derive_topics

__all__ = ["Origin", "Rejected", "identity", "map_status", "normalise", "origin_from_path", "prior_inputs"]

MAX_TITLE = 1000
MAX_ABSTRACT = 20000
_PAGE_RANGE = re.compile(r"\s*(\w+)\s*(?:-+|–|—)\s*(\w+)\s*")


def map_status(raw: str, conference: str = "") -> str:
    """Small vocabulary for the status facet; the raw value is kept beside it.

    The venue's own word for it first (venues.toml: ICLR's "Top-5%" is an oral, NeurIPS's
    "Highlighted" a spotlight), so the facet, the tier sort and the venue statistics agree;
    else the rules of catalogue/statuses.toml.
    """
    cat = catalogue()
    venue = cat.venue(conference) if conference else None
    listed = venue.outcome_name(raw) if venue else None
    return listed if listed in STATUSES else cat.statuses.facet_status(raw)


def normalise(data: object, origin: Origin, scales: Mapping[str, VenueScale] | None = None) -> Paper:
    """The whole record as a :class:`Paper`; raises :class:`Rejected` with the reason.

    ``scales`` are the venue-years' rating and citation scales (:mod:`services.indexer.corpus.scales`) that
    rank the record for its prominence prior; without its venue-year's, those signals are neutral.
    """
    reader = reader_named(origin.format)
    key = reader.key_fields(data)
    paper_id, conference, year = key_identity(key, origin)
    title = clean_title(key.title)[:MAX_TITLE]
    if not title:  # before the other fields, whose mapping may reject the record too
        raise Rejected("title is empty")
    scale = (scales or {}).get(scale_key(conference, year))
    return _paper(reader.fields(data), origin, paper_id, conference, year, title, scale)


def prior_inputs(data: object, origin: Origin) -> tuple[float | None, int | None]:
    """A raw record's rating and citation count as :func:`normalise` reads them — without the rest."""
    prior = reader_named(origin.format).prior_fields(data)
    return _rating(review_scores([prior.rating])), _citations(prior.citations)


def _paper(record: SourceRecord, origin: Origin, paper_id: str, conference: str, year: int, title: str,
           scale: VenueScale | None) -> Paper:
    authors, paper_affiliations = authors_of(record.authors)
    abstract = repair_hyphenation(strip_html(record.abstract))[:MAX_ABSTRACT]
    keywords = merge_keywords(dedupe([clean_text(k) for k in record.keywords]))[:50]  # "Diffusion Models" is "Diffusion Model"
    primary_area = clean_text(record.primary_area)
    status_raw = clean_text(record.status)
    track = label_case(clean_text(record.track))
    reviews = review_scores(record.reviews)
    fields = dict(
        paper_id=paper_id,
        conference=conference,
        conference_name=venues.label(conference),
        year=year,
        title=title,
        authors=authors,
        affiliations=[] if any(a.affiliation for a in authors) else paper_affiliations,
        abstract=abstract,
        tldr=repair_hyphenation(strip_html(record.tldr))[:2000],
        keywords=keywords,
        primary_area=primary_area,
        topics=derive_topics(title, abstract, keywords, primary_area, conference),
        track="main" if not track or track.lower() == "main" else track,
        status=map_status(status_raw, conference),
        status_raw=status_raw,
        award=_award(record.award),
        links=links_of(record.links),
        publication=_publication(record),
        bibtex=record.bibtex.strip()[:10000],
        citations=_citations(record.citations),
        rating_avg=_rating(reviews),
        reviews=reviews,
        names=own_names(title, abstract),
    )
    # The list fields given here, not by their default factories: pydantic's model_construct inspects a
    # factory's signature on every call (0.3 ms for ``list``), 40% of normalising a record.
    fields["prominence"] = prominence(Paper.model_construct(**fields, given_names=[], introduced=[]), scale)
    content_hash = hashlib.sha256(json.dumps(
        {k: v.model_dump() if hasattr(v, "model_dump") else v for k, v in fields.items()},
        sort_keys=True, default=lambda o: o.model_dump(), ensure_ascii=False,
    ).encode()).hexdigest()[:32]
    return Paper(**fields, source=origin.source, position=origin.position, content_hash=content_hash)


def _publication(record: SourceRecord) -> Publication:
    """Pages (a range with BibTeX's ``--``), volume and publisher."""
    pages = clean_text(record.pages)
    if _PAGE_RANGE.fullmatch(pages):
        pages = _PAGE_RANGE.sub(r"\1--\2", pages)
    return Publication(pages=pages[:40], volume=clean_text(record.volume)[:20], publisher=clean_text(record.publisher)[:200])


def _award(value: object) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        return value.strip().lower() not in ("", "false", "no", "0", "none")
    return False


def _rating(reviews: list[ReviewScore]) -> float | None:
    return next((r.mean for r in reviews if r.criterion == "rating"), None)


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
