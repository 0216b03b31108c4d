"""Which records of a read source an ingest sends on: identified, not repeated, with their venue-years' scales.

Why one function: the operator's ingest (:mod:`.dispatch`, over many files) and a followed source's
poll (:mod:`services.indexer.follow.poll`, one file, written in the worker) must accept exactly the
same records, reject the same ones for the same reasons and give each venue-year the same prominence
scale; a rule changed in one place only would make a poll and a ``paperlist ingest`` of the same file
disagree.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from services.indexer.corpus import scales as venue_scales
from services.indexer.paper.normalise import Rejected, identity
from services.indexer.sources import Origin, SourceRead
from services.search.records.prominence import scale_key

from .progress import reject_entry


@dataclass
class Accepted:
    """One read source's records: those to write, those rejected, and what the writes need."""

    records: list[tuple[Origin, object, str]] = field(default_factory=list)  # (origin, raw record, scale key)
    ids: list[str] = field(default_factory=list)                       # their paper ids, in order
    rejects: list[dict] = field(default_factory=list)                   # reject entries (progress.reject_entry)
    problems: list[str] = field(default_factory=list)                   # about the file, not a record
    conference_years: set[tuple[str, int]] = field(default_factory=set)
    scales: dict[str, dict] = field(default_factory=dict)                # venue-year scale key -> JSON
    read: int = 0                                                       # records read, rejected ones too
    empty_venue_year: tuple[str, int] | None = None                     # a valid empty file's


def accept(read: SourceRead, seen: dict[str, str]) -> Accepted:
    """The records of ``read`` to write; ``seen`` (paper id -> where it was first read) spans a whole run,
    so a paper listed twice is written once, and is updated here."""
    out = Accepted()
    location = read.location
    for position, reason in read.errors:
        if position is None:
            out.problems.append(f"{location}: {reason}")
        else:
            out.rejects.append(reject_entry(location, position, reason))
    out.read = len(read.records) + len(out.rejects)
    if not read.records and not read.errors and read.origin.conference and read.origin.year:
        out.empty_venue_year = (read.origin.conference, read.origin.year)  # withdraws it (with a prune)
    kept = []
    for raw in read.records:
        try:
            paper_id, conference, year = identity(raw.data, raw.origin)
        except Rejected as exc:
            out.rejects.append(reject_entry(location, raw.position, str(exc), raw.data))
            continue
        first = seen.get(paper_id)
        if first:
            out.rejects.append(reject_entry(location, raw.position,
                                            f"duplicate of {first} (same paper id {paper_id})", raw.data))
            continue
        seen[paper_id] = f"{location}#{raw.position}"
        out.conference_years.add((conference, year))
        kept.append((raw.data, raw.origin, conference, year))
        out.ids.append(paper_id)
    scales = {key: scale.to_json() for key, scale in venue_scales.from_records(kept).items()}
    for data, origin, conference, year in kept:
        key = scale_key(conference, year)
        out.scales[key] = scales[key]
        out.records.append((origin, data, key))
    return out
