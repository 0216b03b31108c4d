"""The known source formats, and the choice of a reader for each source given."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from .base import SourceError, SourceFile, SourceReader
from .paperlists import PaperlistsReader

# Tried in order; the first that accepts a source reads it. A new format goes first.
READERS: tuple[SourceReader, ...] = (PaperlistsReader(),)


def reader_named(name: str) -> SourceReader:
    for reader in READERS:
        if reader.format == name:
            return reader
    raise SourceError(f"unknown source format {name!r}")


def reader_for(source: str) -> SourceReader:
    for reader in READERS:
        if reader.accepts(source):
            return reader
    raise SourceError(f"{source}: no reader for this source")


def open_sources(sources: Sequence[str]) -> Iterator[SourceFile]:
    """Every readable location behind the sources, in order, each with its reader."""
    for source in sources:
        reader = reader_for(source)
        for location in reader.locations(source):
            yield SourceFile(reader, location)
