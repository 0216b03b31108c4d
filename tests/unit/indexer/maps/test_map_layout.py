"""Where a map puts papers and which ones form a cluster (services/indexer/maps/layout.py), on made-up vectors."""

import numpy as np
import pytest

from services.indexer.maps import layout as map_layout


def blobs(sizes=(90, 70, 50), dims=32, seed=1):
    """Unit vectors around well-separated centres: one blob a subject."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(len(sizes), dims)) * 4
    rows, truth = [], []
    for label, (centre, n) in enumerate(zip(centres, sizes)):
        rows.append(centre + rng.normal(size=(n, dims)))
        truth += [label] * n
    vectors = np.vstack(rows)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True), np.array(truth)


@pytest.fixture(scope="module")
def laid_out():
    vectors, truth = blobs()
    return vectors, truth, map_layout.layout(vectors)


def test_the_layout_keeps_its_proportions_with_its_longer_side_across(laid_out):
    _, _, placed = laid_out
    assert placed.x.min() == pytest.approx(0) and placed.x.max() == pytest.approx(1)
    assert placed.y.min() == pytest.approx(0) and 0 < placed.height <= 1


def test_papers_about_one_subject_end_up_in_one_cluster(laid_out):
    _, truth, placed = laid_out
    assert len(set(placed.cluster)) == map_layout.cluster_count(len(truth)) == 6
    for cluster in set(placed.cluster):  # each cluster holds one subject's papers only
        assert len(set(truth[placed.cluster == cluster])) == 1


def test_clusters_are_numbered_from_the_largest(laid_out):
    _, _, placed = laid_out
    sizes = np.bincount(placed.cluster)
    assert list(sizes) == sorted(sizes, reverse=True)


def test_the_same_vectors_give_the_same_map(laid_out):
    vectors, _, placed = laid_out
    again = map_layout.layout(vectors)
    assert np.allclose(again.x, placed.x) and np.allclose(again.y, placed.y)
    assert (again.cluster == placed.cluster).all()


@pytest.mark.parametrize("papers, clusters", [(1, 3), (60, 3), (200, 6), (1000, 13), (6617, 33), (50_000, 36)])
def test_the_number_of_clusters_grows_with_the_square_root_of_the_papers(papers, clusters):
    assert map_layout.cluster_count(papers) == clusters


def test_a_handful_of_papers_still_gets_a_map():
    vectors, _ = blobs(sizes=(2, 1), dims=8)
    placed = map_layout.layout(vectors)
    assert len(placed.x) == 3 and len(set(placed.cluster)) <= 3
    assert ((0 <= placed.x) & (placed.x <= 1)).all()
