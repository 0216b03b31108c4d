"""Distinct normalised papers of a set of sources, read in-process through the source readers.

For a rebuild from sources, benchmarks and offline checks; ``paperlist ingest`` reads the
same way but hands the normalising to the workers.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from services.indexer.corpus import scales as venue_scales
from services.indexer.paper.normalise import Rejected, identity, normalise
from services.indexer.sources import open_sources
from services.search.records.model import Paper


class CorpusReader:
    """Iterate the papers of ``sources`` (files, folders, URLs): first occurrence of an id wins.

    ``read`` and ``rejected`` count what the iteration met, duplicates among the rejected.
    """

    def __init__(self, sources: Iterable[str]):
        self.locations = list(sources)
        self.read = 0
        self.rejected = 0

    def __iter__(self) -> Iterator[Paper]:
        seen: set[str] = set()
        for source_file in open_sources(self.locations):
            read = source_file.read()
            bad = sum(1 for position, _ in read.errors if position is not None)
            self.read += bad
            self.rejected += bad
            accepted = []
            for raw in read.records:
                self.read += 1
                try:
                    paper_id, conference, year = identity(raw.data, raw.origin)
                    if paper_id in seen:
                        raise Rejected("duplicate")
                except Rejected:
                    self.rejected += 1
                    continue
                seen.add(paper_id)
                accepted.append((raw.data, raw.origin, conference, year))
            scales = venue_scales.from_records(accepted)  # the list read whole ranks its papers, as an ingest does
            for data, origin, _, _ in accepted:
                try:
                    yield normalise(data, origin, scales)
                except Rejected:
                    self.rejected += 1
