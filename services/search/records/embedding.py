"""Paper and query embeddings from a model trained on the corpus itself (LSA joined with word2vec).

A general-purpose sentence model placed neighbours worse than more_like_this on our
papers (issue 21: a MiniLM distillation scored 29–34% same-area against TF-IDF's 32–37%),
while two cheap models learned from the papers' own abstracts beat it by 5 points when
joined: the LSA half knows which words tell topics apart, the word2vec half knows which
words mean nearly the same. A text's embedding is

* LSA: its sublinear TF-IDF vector (unit length) projected on the SVD's components,
  made unit length;
* word2vec: the SIF-weighted mean of its words' skip-gram vectors (a frequent word
  counts less, ``a / (a + p(w))``), minus its projection on the corpus' first principal
  component (what every abstract shares), made unit length;

the two halves side by side, divided by √2; then, when the model has one, its area metric
``A (v - mean)`` (a 256 × 256 map learned from the curated primary areas of labelled papers,
:mod:`services.indexer.training.embeddings`: it stretches the directions that tell areas apart);
one unit vector of :data:`DIMS`.

The artifact (``models/*.npz``, built by ``paperlist embeddings train``, see
:mod:`services.indexer.training.embeddings`) holds the vocabulary and the arrays, nothing
else: runtime needs numpy only and downloads nothing. Its ``version`` is a digest of its
content, stored beside each vector so a reindex re-embeds exactly the papers another
model embedded. The web embeds queries and the indexer papers with this same code.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

EMBEDDING = "embedding"
"""The indexed vector's field; ``EMBEDDING_VERSION`` the field naming the model that made it."""
EMBEDDING_VERSION = "embedding_version"
ARTIFACT = Path(__file__).resolve().parent / "models" / "paper-corpus-v1.npz"
"""The shipped model, trained on ``data/sample``; ``PAPERLIST_EMBEDDING_MODEL`` names another."""
HALF = 128
"""Dimensions of each half (LSA, word2vec)."""
DIMS = 2 * HALF
"""Length of every embedding vector (the dense_vector field's ``dims``)."""
MAX_CHARS = 5000
"""Text beyond this is ignored: the query limit, and plenty for a title and abstract."""
FORMAT = 2
"""Layout of the artifact's arrays written now: format 1's plus ``mean`` and ``metric``."""
FORMATS = (1, 2)
"""Layouts a loader reads (format 1: no area metric, the identity); it refuses another."""
VERSION_PREFIX = f"corpus-lsa{HALF}-w2v{HALF}"

_WORD = re.compile(r"[a-z][a-z0-9]+|[0-9]+[a-z][a-z0-9]*")


def tokens(text: str) -> list[str]:
    """The words a model sees: lower case, letters and digits, at least two characters, not bare numbers."""
    return _WORD.findall(text.lower())


def paper_text(title: str, abstract: str) -> str:
    """What a paper's embedding is made of: its title, then its abstract, cut at MAX_CHARS."""
    return f"{title.strip()}\n{abstract.strip()}".strip()[:MAX_CHARS]


@dataclass(frozen=True)
class ModelArrays:
    """What an artifact holds (the trainer builds one, the embedder loads one)."""

    vocab: np.ndarray       # (V,) str: the words, most frequent first
    idf: np.ndarray         # (V,) float32: inverse document frequency
    lsa: np.ndarray         # (V, HALF) float32: each word's row of the SVD components
    w2v: np.ndarray         # (V, HALF) float32: skip-gram word vectors
    sif: np.ndarray         # (V,) float32: a / (a + p(w))
    pc: np.ndarray          # (HALF,) float32: the SIF means' first principal component (unit)
    mean: np.ndarray = field(default_factory=lambda: np.zeros(DIMS, np.float32))   # (DIMS,) subtracted first
    metric: np.ndarray = field(default_factory=lambda: np.eye(DIMS, dtype=np.float32))  # (DIMS, DIMS) then applied

    @property
    def has_metric(self) -> bool:
        return bool(self.mean.any()) or not np.array_equal(self.metric, np.eye(DIMS, dtype=self.metric.dtype))

    def save(self, path: Path) -> str:
        """Write the artifact (compressed, vectors as float16); return its version."""
        version = self.version()
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "wb") as handle:
            np.savez_compressed(handle, format=np.int64(FORMAT), version=np.str_(version), vocab=self.vocab,
                                idf=self.idf, lsa=self.lsa.astype(np.float16), w2v=self.w2v.astype(np.float16),
                                sif=self.sif, pc=self.pc, mean=self.mean.astype(np.float32),
                                metric=self.metric.astype(np.float32))
        return version

    def version(self) -> str:
        """A digest of the content; a model without an area metric keeps the digest format 1 gave it."""
        import hashlib

        digest = hashlib.sha256()
        digest.update("\n".join(self.vocab.tolist()).encode("utf-8"))
        arrays = [self.idf, self.lsa.astype(np.float16), self.w2v.astype(np.float16), self.sif, self.pc]
        if self.has_metric:
            arrays += [self.mean.astype(np.float32), self.metric.astype(np.float32)]
        for array in arrays:
            digest.update(np.ascontiguousarray(array).tobytes())
        return f"{VERSION_PREFIX}-{digest.hexdigest()[:12]}"


class Embedder:
    """Embeds texts into unit vectors (float32, DIMS long); loads the artifact on first use."""

    def __init__(self, artifact: Path = ARTIFACT) -> None:
        self.artifact = Path(artifact)
        self.dims = DIMS
        self._lock = threading.Lock()
        self._index: dict[str, int] | None = None
        self._version = ""
        self._metric: np.ndarray | None = None

    @classmethod
    def of(cls, arrays: ModelArrays) -> Embedder:
        """An embedder of arrays in memory (the trainer's, before they are saved)."""
        embedder = cls(Path("<memory>"))
        embedder._use(arrays, arrays.version())
        return embedder

    def _load(self) -> None:
        with self._lock:
            if self._index is not None:
                return
            with np.load(self.artifact, allow_pickle=False) as data:
                if "format" not in data or int(data["format"]) not in FORMATS:
                    raise ValueError(f"{self.artifact} is not a format-{'/'.join(map(str, FORMATS))} embedding model")
                extra = {k: data[k].astype(np.float32) for k in ("mean", "metric") if k in data}
                arrays = ModelArrays(vocab=data["vocab"], idf=data["idf"].astype(np.float32),
                                     lsa=data["lsa"].astype(np.float32), w2v=data["w2v"].astype(np.float32),
                                     sif=data["sif"].astype(np.float32), pc=data["pc"].astype(np.float32), **extra)
                version = str(data["version"])
            if arrays.lsa.shape[1] != HALF or arrays.w2v.shape[1] != HALF:
                raise ValueError(f"{self.artifact} has {arrays.lsa.shape[1]}+{arrays.w2v.shape[1]} dims, "
                                 f"expected {HALF}+{HALF}")
            if arrays.mean.shape != (DIMS,) or arrays.metric.shape != (DIMS, DIMS):
                raise ValueError(f"{self.artifact}: its area metric is not {DIMS}-d")
            self._use(arrays, version)

    def _use(self, arrays: ModelArrays, version: str) -> None:
        self._idf, self._lsa, self._w2v = arrays.idf, arrays.lsa, arrays.w2v
        self._sif, self._pc, self._version = arrays.sif, arrays.pc, version
        self._mean, self._metric = arrays.mean, (arrays.metric if arrays.has_metric else None)
        self._index = {word: i for i, word in enumerate(arrays.vocab.tolist())}

    @property
    def version(self) -> str:
        """Names the model (a digest of the artifact's content): store it beside the vectors."""
        if self._index is None:
            self._load()
        return self._version

    def embed(self, texts: Sequence[str], metric: bool = True) -> np.ndarray:
        """One unit vector per text (float32, len(texts) × DIMS); a text with no known word gives zeros.
        ``metric=False``: the joined halves without the model's area metric (what the trainer fits it on)."""
        if self._index is None:
            self._load()
        out = np.zeros((len(texts), DIMS), np.float32)
        index = self._index
        for row, text in enumerate(texts):
            ids = [i for i in map(index.get, tokens(text[:MAX_CHARS])) if i is not None]
            if ids:
                out[row] = self._vector(np.asarray(ids, np.int64))
        if metric and self._metric is not None:
            found = out.any(axis=1)  # a text without a known word stays zeros
            mapped = (out[found] - self._mean) @ self._metric.T
            norms = np.linalg.norm(mapped, axis=1, keepdims=True)
            out[found] = mapped / np.maximum(norms, 1e-12)
        return out

    def _vector(self, ids: np.ndarray) -> np.ndarray:
        words, counts = np.unique(ids, return_counts=True)
        tfidf = (1.0 + np.log(counts, dtype=np.float32)) * self._idf[words]
        lsa = tfidf @ self._lsa[words]
        sif = self._sif[ids] @ self._w2v[ids] / len(ids)
        sif -= (sif @ self._pc) * self._pc
        halves = [_unit(lsa), _unit(sif)]
        joined = np.concatenate(halves)
        norm = np.linalg.norm(joined)
        return joined / norm if norm > 0 else joined

    def embed_one(self, text: str) -> np.ndarray:
        """The embedding of one text (a query)."""
        return self.embed([text])[0]

    def embed_paper(self, title: str, abstract: str) -> np.ndarray:
        """The embedding of one paper from its title and abstract."""
        return self.embed([paper_text(title, abstract)])[0]


def _unit(vector: np.ndarray) -> np.ndarray:
    norm = np.linalg.norm(vector)
    return vector / norm if norm > 0 else vector


@functools.cache
def embedder() -> Embedder:
    """One per process: the model ``PAPERLIST_EMBEDDING_MODEL`` names (else the shipped one), loaded
    on first use, then serving every query (and every batch). Settings are read at that first use,
    never at import."""
    from services.settings import load_settings

    return Embedder(load_settings().embedding_model or ARTIFACT)
