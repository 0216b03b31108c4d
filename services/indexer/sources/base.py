"""The source interface: a reader turns a location into raw records with their origin.

A reader knows one format: which locations it reads, how to decode them, what the
location says about its records (conference and year hints), and how its fields map
onto the format-neutral record that :mod:`services.indexer.paper.normalise` works on. Adding a format means
one reader listed in :mod:`.readers` (``READERS``); ingest, tasks, rebuild and benchmarks
follow.

The neutral record (a plain mapping, so it crosses Celery as JSON if need be) holds:
``id``, ``title``, ``conferences`` (candidate names, in preference order), ``year``,
``authors`` (list of :class:`Author`), ``affiliations`` (the paper's, when not each
author's), ``abstract``, ``tldr``, ``keywords`` (list), ``primary_area``, ``status``,
``track``, ``award``, ``links`` (:class:`Links`), ``publication`` (:class:`Publication`),
``bibtex``, ``citations`` and ``reviews`` (list of :class:`ReviewScore`); the first four
form :meth:`SourceReader.key_fields`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable


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

    def key_fields(self, data: object) -> dict:
        """The identity fields (``id``, ``title``, ``conferences``, ``year``) — cheap."""

    def fields(self, data: object) -> dict:
        """The whole format-neutral record."""

    def prior_fields(self, data: object) -> dict:
        """``reviews`` (the rating, at least) and ``citations`` of the neutral record — cheap, read
        for every record of a venue-year before any is normalised (its prominence scale)."""


@dataclass(frozen=True)
class SourceFile:
    """One location and the reader for it."""

    reader: SourceReader
    location: str

    def read(self) -> SourceRead:
        return self.reader.read(self.location)
