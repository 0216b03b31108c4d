"""The BibTeX upgrade's JSON answer (``POST /api/v1/bibtex/upgrade``, issue 48), described once as pydantic models.

:func:`upgrade_json` builds it from :class:`~.bibtex_upgrade.UpgradeReport`, and :mod:`.openapi` generates its
component from :class:`BibtexUpgrade` (Schemathesis checks real answers against it).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from services.search.records.model import Paper

from ..urls import absolute_url
from .bibtex_upgrade import OUTCOMES, EntryOutcome, UpgradeReport, venue_label
from .schemas import Answer, Count

Outcome = Literal[OUTCOMES]  # type: ignore[valid-type]


class VenuePaper(Answer):
    id: str
    title: str
    authors: list[str]
    venue: str = Field(description='The venue, year and tier as the site shows them: "NeurIPS 2017 · Oral".')
    year: int
    url: str = Field(description="The paper's page on this site.")


class BibtexEntry(Answer):
    number: int = Field(ge=1, description="The entry's place in the file, from 1 (unreadable blocks counted).")
    key: str = Field(description="Its citation key, kept in the upgraded entry (\"\" when it could not be read).")
    outcome: Outcome = Field(description="upgraded; already_venue (cites a venue already); ambiguous (two venue "
                                         "papers or more fit: candidates, nothing replaced); not_found; unreadable "
                                         "(passed through; problem says why).")
    title: str = Field(description="The title the entry cites, TeX decoded (\"\" unless it was looked up).")
    paper: VenuePaper | None = Field(description="The venue paper it was upgraded to.")
    candidates: list[VenuePaper] = Field(description="The venue papers that fit an ambiguous entry.")
    problem: str | None = Field(description="Why an unreadable entry could not be read.")
    old: str = Field(description="The entry as sent.")
    new: str | None = Field(description="The upgraded entry (null unless upgraded).")


class BibtexCounts(Answer):
    entries: Count
    upgraded: Count
    already_venue: Count
    ambiguous: Count
    not_found: Count
    unreadable: Count


class BibtexUpgrade(Answer):
    counts: BibtexCounts
    entries: list[BibtexEntry]
    bibtex: str = Field(description="The upgraded file: every entry not upgraded, and the text between entries, "
                                    "exactly as sent.")


COMPONENTS: tuple[type[Answer], ...] = (BibtexUpgrade,)


def upgrade_json(report: UpgradeReport) -> dict:
    return BibtexUpgrade(counts=BibtexCounts(entries=len(report.entries), **report.counts),
                         entries=[_entry(e) for e in report.entries], bibtex=report.bibtex).model_dump(mode="json")


def _entry(entry: EntryOutcome) -> BibtexEntry:
    return BibtexEntry(number=entry.number, key=entry.key, outcome=entry.outcome, title=entry.title,
                       paper=_paper(entry.paper) if entry.paper else None,
                       candidates=[_paper(p) for p in entry.candidates], problem=entry.problem or None,
                       old=entry.old, new=entry.new or None)


def _paper(paper: Paper) -> VenuePaper:
    return VenuePaper(id=paper.paper_id, title=paper.title, authors=[a.name for a in paper.authors],
                      venue=venue_label(paper), year=int(paper.year),
                      url=absolute_url("pages.paper", paper_id=paper.paper_id))
