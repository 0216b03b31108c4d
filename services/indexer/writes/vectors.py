"""Paper embeddings computed by the worker as it writes: one ``embed`` call per batch.

A paper with an abstract is embedded from its title and abstract. One without is
embedded from its title alone when the title has at least :data:`MIN_TITLE_WORDS` words
(enough to place it near its topic for semantic search); shorter titles ("Keynote",
"Oral session 3") get no vector and are simply not found by kNN.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from services.search.records.embedding import EMBEDDING, EMBEDDING_VERSION, Embedder, embedder, paper_text
from services.search.records.model import Paper

MIN_TITLE_WORDS = 4


def embeddable(paper: Paper) -> bool:
    return bool(paper.abstract.strip()) or len(paper.title.split()) >= MIN_TITLE_WORDS


def vector_fields(papers: Sequence[Paper], model: Embedder | None = None) -> dict[str, dict[str, Any]]:
    """``{paper_id: {embedding, embedding_version}}`` for the papers that get a vector."""
    chosen = [p for p in papers if embeddable(p)]
    if not chosen:
        return {}
    model = model or embedder()
    vectors = model.embed([paper_text(p.title, p.abstract) for p in chosen])
    version = model.version
    # 4 decimals: far finer than the index's int8 quantization, and half the bulk request's bytes.
    return {p.paper_id: {EMBEDDING: vec.tolist(), EMBEDDING_VERSION: version}
            for p, vec in zip(chosen, vectors.round(4), strict=True) if vec.any()}


def carried(stored: dict[str, Any], paper: Paper) -> dict[str, Any]:
    """A rebuild's vector fields: the stored ones when the current artifact made them, else embedded anew.

    So a rebuild from an index written before embeddings existed (or by another artifact)
    fills them in, and an ordinary rebuild copies them without re-embedding.
    """
    if stored.get(EMBEDDING) and stored.get(EMBEDDING_VERSION) == embedder().version:
        return {EMBEDDING: stored[EMBEDDING], EMBEDDING_VERSION: stored[EMBEDDING_VERSION]}
    return vector_fields([paper]).get(paper.paper_id, {})
