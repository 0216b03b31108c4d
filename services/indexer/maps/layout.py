"""Where a venue-year's papers go on its map, and which ones form a cluster (issue 32).

The projection is t-SNE (openTSNE), the clusters k-means on its 2-D layout. Chosen by
``bench/pipeline/maps.py`` on the full corpus (ICML 2026, 6,617 vectors of 256 d, one core):

=========================  ========  ===========  ====================
projection                 CPU s     10-NN kept   2-D 10-NN same area
=========================  ========  ===========  ====================
PCA                          1.0       0.019          0.101
openTSNE, its defaults      50.2       0.331          0.270
openTSNE, as here           17.3       0.332          0.268
UMAP (cosine)               42.1       0.193          0.246   (warm: numba compiled)
PaCMAP                       1.8       0.132          0.230   (warm: numba compiled)
=========================  ========  ===========  ====================

(the 256-d space's own 10-NN share an area 0.291 of the time, random pairs 0.052). t-SNE
keeps a paper's neighbours best, and 375 iterations (125 exaggerated) keep what 750 do at a
third of the cost; exact neighbours (scikit-learn's chunked brute force over unit vectors)
are cheaper than Annoy below ~20,000 points, and Barnes-Hut cheaper than FFT below 10,000.
PaCMAP is ten times faster but keeps fewer neighbours and brings numba, llvmlite and faiss.

Clusters: k-means on the 2-D layout made clusters as coherent as k-means on the 256-d
vectors (pairs in one cluster share a curated primary area 3.49x as often as random pairs
of ICML 2026, against 3.45x) while 94% of a point's 2-D neighbours are in its cluster
(65% for 256-d k-means): regions one can draw a name on. HDBSCAN on the layout left 40%
of the papers as noise. k grows with the square root of the papers (33 for 6,617).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from threadpoolctl import threadpool_limits

PERPLEXITY = 30
EXAGGERATED_ITERATIONS, EXAGGERATION = 125, 12
ITERATIONS = 250
BARNES_HUT_BELOW = 10_000   # points: Barnes-Hut gradients below, FFT-interpolated above
EXACT_NEIGHBOURS_BELOW = 20_000
PAPERS_PER_CLUSTER = 6      # k = sqrt(n / this), so a cluster holds about sqrt(6 n) papers
MIN_CLUSTERS, MAX_CLUSTERS = 3, 36
SEED = 0
METHOD = (f"openTSNE (perplexity {PERPLEXITY}, {EXAGGERATED_ITERATIONS}+{ITERATIONS} iterations) "
          f"+ k-means on the layout")


@dataclass(frozen=True)
class Layout:
    x: np.ndarray        # (n,) in [0, 1]
    y: np.ndarray        # (n,) in [0, aspect⁻¹]: the layout keeps its proportions, its longer axis horizontal
    cluster: np.ndarray  # (n,) int, 0..k-1, numbered by size (0 the largest)

    @property
    def height(self) -> float:
        return float(self.y.max()) if len(self.y) else 0.0


def cluster_count(papers: int) -> int:
    return int(min(MAX_CLUSTERS, max(MIN_CLUSTERS, round(math.sqrt(papers / PAPERS_PER_CLUSTER)))))


def layout(vectors: np.ndarray) -> Layout:
    """2-D positions and clusters of unit vectors (one row a paper); deterministic for the same input."""
    coords = project(vectors)
    return Layout(*normalised(coords), cluster=clusters(coords, cluster_count(len(coords))))


def project(vectors: np.ndarray) -> np.ndarray:
    """t-SNE of the rows, on one core."""
    from openTSNE import TSNEEmbedding, affinity, initialization, nearest_neighbors  # the maps only: not at import

    n = len(vectors)
    if n < 4:
        return np.zeros((n, 2)) + np.arange(n)[:, None]
    data = np.asarray(vectors, dtype=np.float32)
    perplexity = min(PERPLEXITY, (n - 1) / 3)
    with threadpool_limits(limits=1):  # one core's work: the figure the issue asks; two workers, two maps
        # The neighbour index made here, not by openTSNE's lookup of a method by name, which imports
        # pynndescent (and with it numba's compiler) whenever it is installed, though it is never used.
        index = nearest_neighbors.Sklearn if n < EXACT_NEIGHBOURS_BELOW else nearest_neighbors.Annoy
        affinities = affinity.PerplexityBasedNN(
            perplexity=perplexity, n_jobs=1,
            knn_index=index(data=data, k=min(n - 1, int(3 * perplexity)), metric="euclidean", n_jobs=1,
                            random_state=SEED))
        embedding = TSNEEmbedding(initialization.pca(data, random_state=SEED), affinities, n_jobs=1,
                                  negative_gradient_method="bh" if n < BARNES_HUT_BELOW else "fft",
                                  random_state=SEED)
        embedding = embedding.optimize(EXAGGERATED_ITERATIONS, exaggeration=EXAGGERATION, momentum=0.5)
        embedding = embedding.optimize(ITERATIONS, momentum=0.8)
    return np.asarray(embedding, dtype=np.float64)


def clusters(coords: np.ndarray, k: int) -> np.ndarray:
    """k-means on the layout, clusters numbered from the largest (ties: the leftmost first)."""
    from sklearn.cluster import KMeans

    k = min(k, len(coords))
    if k < 2:
        return np.zeros(len(coords), dtype=np.int64)
    with threadpool_limits(limits=1):
        raw = KMeans(n_clusters=k, n_init=3, random_state=SEED).fit_predict(coords)
    sizes = np.bincount(raw, minlength=k)
    left = np.array([coords[raw == c, 0].mean() if sizes[c] else 0.0 for c in range(k)])
    order = sorted(range(k), key=lambda c: (-sizes[c], left[c]))
    renumber = np.empty(k, dtype=np.int64)
    renumber[order] = np.arange(k)
    return renumber[raw]


def normalised(coords: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The layout turned so its longer axis is horizontal, scaled so x spans [0, 1] (y as much less as it is)."""
    if len(coords) < 2:
        return np.full(len(coords), 0.5), np.full(len(coords), 0.5)
    centred = coords - coords.mean(axis=0)
    _, _, axes = np.linalg.svd(centred, full_matrices=False)
    turned = centred @ axes.T
    turned *= np.where(np.mean(turned ** 3, axis=0) < 0, -1.0, 1.0)  # one orientation for the same layout
    low, high = turned.min(axis=0), turned.max(axis=0)
    if high[1] - low[1] > high[0] - low[0]:  # the most spread axis is not always the longest
        turned, low, high = turned[:, ::-1], low[::-1], high[::-1]
    span = float(max(high[0] - low[0], 1e-9))
    return (turned[:, 0] - low[0]) / span, (turned[:, 1] - low[1]) / span
