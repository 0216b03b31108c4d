"""Read the raw paperlists corpus (``<conf>/<conf><year>.json[.gz]``) for the embedding bench.

A plain JSON loop, no indexer involved: the bench only needs title, abstract and the
curated ``primary_area``. Files are visited in sorted order so every run sees the same
records in the same order.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path


def records(root: Path) -> Iterator[tuple[str, dict]]:
    """(conference-year file stem, record) for every record under root."""
    for path in sorted(root.glob("*/*.json*")):
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8") as handle:
            data = json.load(handle)
        if not isinstance(data, list):
            continue
        stem = path.name.split(".")[0]
        for record in data:
            if isinstance(record, dict):
                yield stem, record


def text_of(record: dict) -> tuple[str, str]:
    """Title and abstract as strings (sources sometimes hold null or lists)."""
    def field(name: str) -> str:
        value = record.get(name)
        return value if isinstance(value, str) else ""
    return field("title"), field("abstract")
