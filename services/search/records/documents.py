"""Mapping between the :class:`Paper` domain object and the stored Elasticsearch document."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from services.search.catalogue import taxonomy, venues

from .model import Author, Links, Paper, Publication, ReviewScore, affiliations_of, title_key
from .name_keys import author_key, strip_accents
from .paper_names import contractions, fold, name_keys

# Source fields a result list needs; the detail page reads the whole document.
SUMMARY_FIELDS = ["paper_id", "conference", "conference_name", "year", "title", "authors",
                  "abstract", "topics", "keywords", "track", "status", "status_raw",
                  "award", "links", "citations", "rating_avg", "affiliations", "names", "given_names",
                  "introduced", "mentions", "author_ids"]


def to_document(paper: Paper, *, run: str = "", indexed_at: str | None = None) -> dict[str, Any]:
    """The indexed form: the paper plus derived fields for search, facets and suggestions."""
    doc = paper.model_dump()
    doc.update(
        title_key=title_key(paper.title),
        title_contractions=contractions(paper.title),
        **name_fields(paper),
        topic_labels=[taxonomy.label(t) for t in paper.topics],
        author_names=paper.author_names,
        authors_folded=[fold(name) for name in paper.author_names],
        author_keys=list(dict.fromkeys(author_key(name) for name in paper.author_names)),
        has_abstract=bool(paper.abstract.strip()),
        tier_rank=paper.tier_rank,
        kind=venues.lookup(paper.conference).kind,  # what the kind and has_code facets read
        has_code=bool(paper.links.code),
        title_suggest={"input": [paper.title[:100]], "weight": _suggest_weight(paper)},
        author_suggest=[{"input": _suggest_inputs(name[:60])} for name in paper.author_names] or None,
        ingest_run=run,
    )
    if indexed_at:
        doc["indexed_at"] = indexed_at
    if doc["author_suggest"] is None:
        del doc["author_suggest"]
    return doc


def name_fields(paper: Paper) -> dict[str, Any]:
    """The stored names and the fields derived from them: what the corpus pass rewrites too."""
    return {"names": paper.names, "given_names": paper.given_names, "introduced": paper.introduced,
            "mentions": paper.mentions, "name_keys": name_keys(paper.known_as),
            "intro_keys": name_keys(paper.introduced)}


def name_rotations(name: str) -> list[str]:
    """Completion inputs of a name, one per word it may be typed from: "Yoshua Bengio", "Bengio Yoshua".

    Rotations rather than bare suffixes, so two people sharing a surname stay two suggestions,
    and :func:`name_of_rotation` can give back the name as written.
    """
    words = name.split()
    return [" ".join(words[i:] + words[:i]) for i in range(len(words))] or [name]


def _suggest_inputs(name: str) -> list[str]:
    """A name's rotations, and those of its accent-folded spelling: "scholkopf" completes "Bernhard Schölkopf"."""
    folded = strip_accents(name)
    return name_rotations(name) + (name_rotations(folded) if folded != name else [])


def name_of_rotation(text: str, names: list[str]) -> str:
    """The name among ``names`` that ``text`` (a matched completion input) is a rotation of."""
    return next((n for n in names if text in _suggest_inputs(n[:60])), text)


def _suggest_weight(paper: Paper) -> int:
    """Rank completions: cited and recent papers first (weights must be non-negative ints)."""
    return min(paper.citations or 0, 100_000) // 10 + max(paper.year - 1980, 0)


# The required fields a partial ``_source`` (a result list's fields) may leave out.
_REQUIRED = {"paper_id": "", "conference": "", "title": "", "year": 0}


def from_source(source: dict[str, Any]) -> Paper:
    """Rebuild the domain object from a stored ``_source`` (full or partial).

    Validated in pydantic-core, which fills the defaults of fields a partial ``_source`` left
    out and ignores the derived ones: a quarter of what ``model_construct``'s Python loop over
    every field of every nested model cost (10 against 42 us a paper: 0.6 ms of a 20-hit page,
    a fifth of an API search's own time). A document that does not validate (one an older
    schema wrote, read by a reindex) is rebuilt as it is stored.
    """
    data = {**_REQUIRED, **source}
    data.setdefault("conference_name", data["conference"])
    try:
        return Paper.model_validate(data)
    except ValidationError:
        return _constructed(data)


def _constructed(source: dict[str, Any]) -> Paper:
    """The paper of a stored document as it is, unvalidated (``model_construct``)."""
    data = {k: v for k, v in source.items() if k in Paper.model_fields}
    data["authors"] = [Author.model_construct(**a) for a in source.get("authors") or []]
    if "affiliations" not in data:
        data["affiliations"] = affiliations_of(data["authors"])
    data["links"] = Links.model_construct(**(source.get("links") or {}))
    data["reviews"] = [ReviewScore.model_construct(**r) for r in source.get("reviews") or []]
    data["publication"] = Publication.model_construct(**(source.get("publication") or {}))
    return Paper.model_construct(**data)
