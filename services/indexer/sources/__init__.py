"""Where records come from: the source interface, its readers and the choice between them."""

from .base import Origin, RawRecord, Rejected, SourceError, SourceFile, SourceRead, SourceReader
from .paperlists import LoadedSource, PaperlistsReader, expand, is_url, load, origin_from_path, parse_array
from .readers import open_sources, reader_for, reader_named

__all__ = [
    "LoadedSource", "Origin", "PaperlistsReader", "RawRecord", "Rejected", "SourceError", "SourceFile",
    "SourceRead", "SourceReader", "expand", "is_url", "load", "open_sources", "origin_from_path",
    "parse_array", "reader_for", "reader_named",
]
