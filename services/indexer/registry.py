"""Old name of :mod:`services.indexer.ingested_sources` (the record of ingested sources,
not a venue registry); kept only until ``ingest.py`` imports the new name."""

from .ingested_sources import SourceRecord, SourceRegistry

__all__ = ["SourceRecord", "SourceRegistry"]
