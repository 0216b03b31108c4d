"""Paper and query embeddings: static token vectors distilled from all-MiniLM-L6-v2.

A transformer forward pass per paper costs about 2.7 GFLOP, too much for 214k papers on
two cores; so the transformer embedded its vocabulary once (``deploy/tools/
build_embeddings.py``) and a text's embedding is the normalised sum of its tokens' rows,
each row already scaled by a frequency weight (SIF-style: frequent tokens count less).
Runtime needs numpy and ``tokenizers`` only; the artifact (token table, int8 with a
per-row scale, plus the model's own tokenizer) ships in ``models/``.

The web embeds queries and the indexer embeds papers with the same code, so both sides
always agree; ``Embedder.version`` names the artifact so a stored vector made by another
one can be detected and recomputed.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

ARTIFACT = Path(__file__).resolve().parent / "models" / "paper-static-v1.npz"
DIMS = 256
"""Length of every embedding vector (the dense_vector field's ``dims``)."""
MAX_CHARS = 5000
"""Text beyond this is ignored: the query limit, and plenty for a title and abstract."""


def paper_text(title: str, abstract: str) -> str:
    """What a paper's embedding is made of: its title, then its abstract, cut at MAX_CHARS."""
    return f"{title.strip()}\n{abstract.strip()}".strip()[:MAX_CHARS]


class Embedder:
    """Embeds texts into unit vectors (float32, DIMS long); loads the artifact on first use."""

    def __init__(self, artifact: Path = ARTIFACT, dims: int = DIMS) -> None:
        self.artifact = artifact
        self.dims = dims
        self._lock = threading.Lock()
        self._table: np.ndarray | None = None
        self._tokenizer = None
        self._version = ""

    def _load(self) -> None:
        with self._lock:
            if self._table is not None:
                return
            from tokenizers import Tokenizer

            with np.load(self.artifact, allow_pickle=False) as data:
                table = data["vectors"].astype(np.float32) * data["scales"].astype(np.float32)[:, None]
                tokenizer = Tokenizer.from_str(bytes(data["tokenizer"]).decode("utf-8"))
                version = str(data["version"])
            if table.shape[1] != self.dims:
                raise ValueError(f"{self.artifact} has {table.shape[1]} dims, expected {self.dims}")
            tokenizer.no_padding()
            tokenizer.no_truncation()
            self._tokenizer, self._version = tokenizer, version
            self._table = table

    @property
    def version(self) -> str:
        """Names the artifact (model, dims, weighting): store it beside the vectors."""
        if self._table is None:
            self._load()
        return self._version

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """One unit vector per text (float32, len(texts) × DIMS); empty text gives zeros."""
        if self._table is None:
            self._load()
        if not texts:
            return np.zeros((0, self.dims), np.float32)
        encodings = self._tokenizer.encode_batch([t[:MAX_CHARS] for t in texts], add_special_tokens=False)
        lengths = np.fromiter((len(e.ids) for e in encodings), np.int64, len(encodings))
        out = np.zeros((len(texts), self.dims), np.float32)
        filled = lengths > 0
        if filled.any():
            ids = np.concatenate([e.ids for e in encodings if e.ids]).astype(np.int64)
            starts = np.concatenate(([0], np.cumsum(lengths[filled])[:-1]))
            out[filled] = np.add.reduceat(self._table[ids], starts, axis=0)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return np.divide(out, norms, out=out, where=norms > 0)

    def embed_one(self, text: str) -> np.ndarray:
        """The embedding of one text (a query)."""
        return self.embed([text])[0]

    def embed_paper(self, title: str, abstract: str) -> np.ndarray:
        """The embedding of one paper from its title and abstract."""
        return self.embed([paper_text(title, abstract)])[0]
