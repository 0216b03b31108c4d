"""The source interface: a reader turns a location into raw records, and a record into the neutral record.

A reader knows one format: which locations it reads, how to decode them, what the
location says about its records (conference and year hints), and which of its fields
hold what: it **maps, never cleans**. The values of :class:`SourceRecord` are as the
source wrote them (decoded from the format's own encoding, split where the format joins
several values), and :mod:`services.indexer.paper` cleans them, the same way for every
format (INSPIRE's parser-per-format feeding one builder). Adding a format means one reader
listed in :mod:`.readers` (``READERS``); ingest, tasks, rebuild and benchmarks follow.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol, runtime_checkable


class SourceError(ValueError):
    """A source that cannot be used at all (missing path, unreachable URL)."""


class Rejected(ValueError):
    """A record that cannot become a paper; ``str()`` is the reason shown to operators."""


@dataclass(frozen=True)
class Origin:
    """Where a record came from: its location and place, and what the location hints.

    ``conference`` and ``year`` are used only when the record itself lacks them. ``format``
    names the reader (:attr:`SourceReader.format`) and has no default: a record of a second
    format must not pass for a paperlists one.
    """

    source: str
    position: int
    conference: str = ""
    year: int | None = None
    format: str = field(kw_only=True)

    def hints(self) -> dict:
        """What a worker needs to rebuild the origin of any record of this location."""
        return {"source": self.source, "conference": self.conference, "year": self.year, "format": self.format}

    @classmethod
    def from_hints(cls, hints: Mapping[str, Any], position: int) -> Origin:
        return cls(hints["source"], position, hints.get("conference") or "", hints.get("year"),
                   format=hints["format"])


@dataclass(frozen=True)
class RawRecord:
    """One record as the source holds it, undecoded beyond JSON, with its origin."""

    origin: Origin
    data: object

    @property
    def position(self) -> int:
        return self.origin.position


@dataclass
class SourceRead:
    """Everything one location yielded: its records and what could not be read.

    ``errors`` are ``(position, reason)``; position ``None`` is about the location itself.
    """

    location: str
    origin: Origin
    records: list[RawRecord] = field(default_factory=list)
    errors: list[tuple[int | None, str]] = field(default_factory=list)


@dataclass(frozen=True)
class SourceKey:
    """What identifies a record (cheap to read): the source's id, its title, the fields that may name the
    conference (in preference order) and the year, each as written."""

    id: object
    title: object
    conferences: tuple[object, ...]
    year: object


@dataclass(frozen=True)
class Alignment:
    """One way the source gives affiliations by author place: each place's affiliations as written.

    ``whole_paper``: a single entry that stands for every author (one affiliation for the whole paper).
    """

    places: tuple[tuple[str, ...], ...]
    whole_paper: bool = False


@dataclass(frozen=True)
class SourceAuthors:
    """The authors by place, as written: parallel lists (``""`` where a place has no value).

    ``alignments``: the ways the source aligns affiliations with the places, best first (the first whose
    cleaned values fit the authors wins); ``paper_affiliations``: the paper's own list, for when none fits.
    """

    names: tuple[str, ...] = ()
    profiles: tuple[str, ...] = ()  # the source's author ids: a profile (OpenReview's ~First_Last1) or an e-mail
    orcids: tuple[str, ...] = ()
    alignments: tuple[Alignment, ...] = ()
    paper_affiliations: tuple[str, ...] = ()


@dataclass(frozen=True)
class SourceLinks:
    """Where the record may hold each link, as written; several candidates in preference order.

    ``texts``: every value that may mention a code or project page (the record's own code and project
    fields first, then its text); ``base``: what a relative link (``/pdf?id=...``) is relative to.
    """

    site: tuple[object, ...] = ()
    openreview: object = None
    pdf: object = None
    supplementary: object = None
    code: tuple[object, ...] = ()
    project: object = None
    arxiv: object = None
    doi: tuple[object, ...] = ()
    texts: tuple[object, ...] = ()
    base: str = ""


class SourceReview(NamedTuple):
    """One review criterion as written: the reviewers' scores and their mean (either may be missing)."""

    criterion: str
    scores: object
    mean: object


@dataclass(frozen=True)
class SourcePrior:
    """What the prominence prior reads of a record (its rating review and citation count), as written."""

    rating: SourceReview
    citations: object


@dataclass(frozen=True)
class SourceRecord:
    """The format-neutral record: every field a paper is built from, as the source wrote it."""

    key: SourceKey
    authors: SourceAuthors = SourceAuthors()
    abstract: str = ""
    tldr: str = ""
    keywords: tuple[str, ...] = ()
    primary_area: str = ""
    status: str = ""
    track: str = ""
    award: object = None
    links: SourceLinks = SourceLinks()
    pages: str = ""
    volume: str = ""
    publisher: str = ""
    bibtex: str = ""
    citations: object = None
    reviews: tuple[SourceReview, ...] = ()


@runtime_checkable
class SourceReader(Protocol):
    """One source format."""

    format: str

    def accepts(self, source: str) -> bool:
        """Whether this reader reads ``source`` (a path, folder or URL)."""

    def locations(self, source: str) -> Iterator[str]:
        """The readable locations behind ``source``; raises :class:`SourceError`."""

    def origin(self, location: str, position: int) -> Origin:
        """The origin of the record at ``position``, with the location's hints."""

    def read(self, location: str) -> SourceRead:
        """Raw records of one location; raises :class:`SourceError` only when nothing can be read."""

    def key_fields(self, data: object) -> SourceKey:
        """The identity fields — cheap; raises :class:`Rejected` when ``data`` is no record at all."""

    def fields(self, data: object) -> SourceRecord:
        """The whole format-neutral record; raises :class:`Rejected`."""

    def prior_fields(self, data: object) -> SourcePrior:
        """The rating and the citation count — cheap, read for every record of a venue-year before any is
        normalised (its prominence scale)."""


@dataclass(frozen=True)
class SourceFile:
    """One location and the reader for it."""

    reader: SourceReader
    location: str

    def read(self) -> SourceRead:
        return self.reader.read(self.location)
