"""Distinct normalised papers of a set of sources, read in-process.

For a rebuild from sources and for offline checks; ``paperlist ingest`` reads the same
way but hands the normalising to the workers.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from services.search.model import Paper

from .normalise import Rejected, identity, normalise, origin_from_path
from .sources import load


class CorpusReader:
    """Iterate the papers of ``locations``: first occurrence of an id wins, rejects skipped.

    ``read`` and ``rejected`` count what the iteration met, duplicates among the rejected.
    """

    def __init__(self, locations: Iterable[str]):
        self.locations = list(locations)
        self.read = 0
        self.rejected = 0

    def __iter__(self) -> Iterator[Paper]:
        seen: set[str] = set()
        for location in self.locations:
            loaded = load(location)
            self.read += sum(1 for position, _ in loaded.errors if position is not None)
            self.rejected += sum(1 for position, _ in loaded.errors if position is not None)
            for position, record in loaded.records:
                self.read += 1
                origin = origin_from_path(location, position)
                try:
                    paper_id = identity(record, origin)[0]
                    if paper_id in seen:
                        raise Rejected("duplicate")
                    paper = normalise(record, origin)
                except Rejected:
                    self.rejected += 1
                    continue
                seen.add(paper_id)
                yield paper
