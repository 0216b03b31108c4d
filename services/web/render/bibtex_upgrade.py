"""The BibTeX upgrade (issue 48): a .bib whose preprints are replaced by the venue entries of their papers.

:func:`upgrade` is the entry point (the web's ``POST /api/v1/bibtex/upgrade`` and ``/tools/bibtex``, and the
MCP tool ``upgrade_bibtex``): the file is read (:mod:`.bib_reading`), every preprint it cites is looked up at
once (``SearchReads.venue_matches``, one ``msearch``; the decision is the search layer's,
:mod:`services.search.answers.venue_match`), and each entry gets one outcome of :data:`OUTCOMES`:

- ``upgraded``: one venue paper fits; the entry becomes that paper's BibTeX as the site writes it
  (:func:`.bibtex.generate`), under the user's own citation key, with the fields the user asked to keep
  (``keep=note,url``: the user's value replaces the venue entry's);
- ``already_venue``: it cites a venue already (a ``booktitle``, a journal that is not arXiv or CoRR, a book, a thesis);
- ``ambiguous``: two venue papers or more fit: each is offered, nothing is replaced;
- ``not_found``: no venue paper fits;
- ``unreadable``: bibtexparser could not read it (its problem said).

Everything but an upgraded entry leaves exactly as it came (its text, comments and ``@string`` between
entries too). Nothing is stored. The one read is the reads object the caller hands in; the rest is pure.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from services.search.answers.venue_match import AMBIGUOUS, FOUND, CitedWork, VenueMatch
from services.search.errors import InvalidRequest
from services.search.records.model import Paper

from .bib_reading import BibEntry, read_bib
from .bibtex import generate

UPGRADED, ALREADY_VENUE, UNREADABLE, NOT_FOUND = "upgraded", "already_venue", "unreadable", "not_found"
OUTCOMES = (UPGRADED, ALREADY_VENUE, AMBIGUOUS, NOT_FOUND, UNREADABLE)
OUTCOME_LABELS = {UPGRADED: "Upgraded", ALREADY_VENUE: "Already a venue entry", AMBIGUOUS: "Ambiguous",
                  NOT_FOUND: "Not found", UNREADABLE: "Could not be read"}
MAX_KEPT_FIELDS = 20
# ``keep``: field names, comma-separated, blanks ignored; the validation and the OpenAPI document read this one pattern.
_KEEP_NAME = r"[A-Za-z][A-Za-z0-9_-]{0,39}"
KEEP_PATTERN = rf"^ *(?:{_KEEP_NAME})? *(?:, *(?:{_KEEP_NAME})? *){{0,{MAX_KEPT_FIELDS - 1}}}$"
_HIDDEN_TIERS = ("unknown", "accept")  # statuses a venue label leaves out, as the paper card does


class VenueMatching(Protocol):
    """What the upgrade reads: ``SearchReads.venue_matches`` (the site's reads, a tool's PaperSearch, a fake)."""

    def venue_matches(self, works: Sequence[CitedWork]) -> list[VenueMatch]: ...


@dataclass(frozen=True)
class UpgradeOptions:
    """``keep``: field names of the user's entries kept in their upgraded entries (lower-case)."""

    keep: tuple[str, ...] = ()


@dataclass(frozen=True)
class EntryOutcome:
    """One entry's outcome: its number and key, what it cited, the venue paper (or the candidates), old and new."""

    number: int
    key: str
    outcome: str
    title: str  # the cited title, TeX decoded ("" for an unreadable block or a venue entry)
    old: str
    new: str = ""  # the upgraded entry ("" unless upgraded)
    paper: Paper | None = None
    candidates: tuple[Paper, ...] = ()
    problem: str = ""

    @property
    def venue(self) -> str:
        return venue_label(self.paper) if self.paper else ""


@dataclass(frozen=True)
class UpgradeReport:
    """The outcome of every entry in file order, and the new file."""

    entries: tuple[EntryOutcome, ...]
    bibtex: str

    @property
    def counts(self) -> dict[str, int]:
        seen = Counter(e.outcome for e in self.entries)
        return {outcome: seen[outcome] for outcome in OUTCOMES}

    @property
    def changed(self) -> list[EntryOutcome]:
        return [e for e in self.entries if e.outcome == UPGRADED]


def upgrade(text: str, reads: VenueMatching, options: UpgradeOptions | None = None) -> UpgradeReport:
    """The upgraded file of ``text`` and each entry's outcome (see the module docstring). Raises
    :class:`~.bib_reading.BibInputError` for input that is no .bib or is over a limit."""
    entries = read_bib(text)
    looked_up = [e for e in entries if e.work is not None]
    matches = reads.venue_matches([e.work for e in looked_up if e.work]) if looked_up else []
    by_number = {e.number: m for e, m in zip(looked_up, matches, strict=True)}
    return report(text, entries, by_number, options or UpgradeOptions())


def report(text: str, entries: Sequence[BibEntry], matches: dict[int, VenueMatch],
           options: UpgradeOptions) -> UpgradeReport:
    outcomes = tuple(_outcome(e, matches.get(e.number), options) for e in entries)
    return UpgradeReport(outcomes, _rewritten(text, outcomes))


def keep_fields(value: str | None) -> UpgradeOptions:
    """``keep=note,url`` as options; a name that is no BibTeX field name is a 400 naming ``keep``."""
    if not re.search(KEEP_PATTERN, value or ""):  # search: as the document's JSON Schema pattern is read
        raise InvalidRequest("keep", f"keep takes up to {MAX_KEPT_FIELDS} BibTeX field names of at most 40 letters, "
                                     "digits, - and _, comma-separated (note,url)")
    return UpgradeOptions(keep=tuple(dict.fromkeys(n.strip().lower() for n in (value or "").split(",") if n.strip())))


def venue_label(paper: Paper) -> str:
    """"NeurIPS 2017 · Oral": the venue and year, and the tier when there is one (as the paper card shows it)."""
    label = f"{paper.conference_name} {int(paper.year)}"
    return label if paper.status in _HIDDEN_TIERS else f"{label} · {paper.status.replace('-', ' ').capitalize()}"


def _outcome(entry: BibEntry, match: VenueMatch | None, options: UpgradeOptions) -> EntryOutcome:
    base = {"number": entry.number, "key": entry.key, "old": entry.raw}
    if not entry.readable:
        return EntryOutcome(outcome=UNREADABLE, title="", problem=entry.problem, **base)  # type: ignore[arg-type]
    title = entry.work.title if entry.work else ""
    if entry.work is None or match is None:
        return EntryOutcome(outcome=ALREADY_VENUE, title=title, **base)  # type: ignore[arg-type]
    if match.outcome == FOUND and match.paper is not None:
        return EntryOutcome(outcome=UPGRADED, title=title, new=venue_entry(match.paper, entry, options.keep),
                            paper=match.paper, **base)  # type: ignore[arg-type]
    return EntryOutcome(outcome=match.outcome, title=title, candidates=match.papers, **base)  # type: ignore[arg-type]


def venue_entry(paper: Paper, entry: BibEntry, keep: Sequence[str] = ()) -> str:
    """The paper's BibTeX under the entry's key, with the entry's ``keep`` fields (theirs replacing the venue's)."""
    head, _, body = generate(paper, entry.key).partition("\n")
    lines = body.removesuffix("\n}").split(",\n")
    kept = [(name, entry.field(name)) for name in keep if entry.field(name) and _balanced(entry.field(name))]
    replaced = {name for name, _ in kept}
    lines = [line for line in lines if line.split("=", 1)[0].strip() not in replaced]
    lines += [f"  {name} = {{{value}}}" for name, value in kept]
    return f"{head}\n" + ",\n".join(lines) + "\n}"


def _balanced(value: str) -> bool:
    """Its braces pair up (a value that did not could leave its field)."""
    depth = 0
    for ch in value:
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


def _rewritten(text: str, outcomes: Sequence[EntryOutcome]) -> str:
    """``text`` with each upgraded entry's text replaced by its venue entry; everything else as it came."""
    out, cursor = [], 0
    for outcome in outcomes:
        at = text.find(outcome.old, cursor)
        if at < 0:  # never: every block is a piece of the text, in order
            continue
        if outcome.outcome == UPGRADED:
            out += [text[cursor:at], outcome.new]
        else:
            out.append(text[cursor:at + len(outcome.old)])
        cursor = at + len(outcome.old)
    out.append(text[cursor:])
    return "".join(out)
