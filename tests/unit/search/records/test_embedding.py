"""Corpus paper embeddings: the shipped model loads and behaves like an embedding."""

from __future__ import annotations

import numpy as np
import pytest

from services.search.records.embedding import (
    ARTIFACT,
    DIMS,
    HALF,
    MAX_CHARS,
    VERSION_PREFIX,
    Embedder,
    ModelArrays,
    paper_text,
    tokens,
)

DIFFUSION = "Denoising diffusion probabilistic models for high-resolution image synthesis."
DIFFUSION_TOO = "Score-based generative modelling: image generation with diffusion and denoising."
ROBOTS = "Reinforcement learning of locomotion policies for legged robots with reward shaping."


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return Embedder()


def test_construction_does_no_work():
    fresh = Embedder(ARTIFACT.with_name("does-not-exist.npz"))
    assert fresh._index is None  # nothing read until the first embed
    with pytest.raises(FileNotFoundError):
        fresh.embed(["x"])


def test_shape_dtype_and_unit_norm(embedder):
    vectors = embedder.embed([DIFFUSION, ROBOTS, "graphs"])
    assert vectors.shape == (3, DIMS) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_deterministic_across_instances(embedder):
    first = embedder.embed([DIFFUSION, ROBOTS])
    again = Embedder().embed([ROBOTS, DIFFUSION])
    np.testing.assert_array_equal(first, again[::-1])


def test_batch_equals_single(embedder):
    batch = embedder.embed([DIFFUSION, "", ROBOTS])
    np.testing.assert_allclose(batch[2], embedder.embed_one(ROBOTS), atol=1e-6)


def test_similar_texts_are_closer_than_unrelated(embedder):
    a, b, c = embedder.embed([DIFFUSION, DIFFUSION_TOO, ROBOTS])
    assert a @ b > a @ c + 0.1
    assert a @ b > b @ c + 0.1


def test_empty_and_tokenless_texts_give_zero_vectors(embedder):
    vectors = embedder.embed(["", "   ", DIFFUSION])
    assert not np.isnan(vectors).any()
    assert not vectors[:2].any()
    assert embedder.embed([]).shape == (0, DIMS)


def test_long_query_is_cut_at_max_chars(embedder):
    words = (DIFFUSION + " " + ROBOTS + " ") * 80
    assert len(words) > MAX_CHARS + 1000
    query = embedder.embed_one(words)
    assert query.shape == (DIMS,) and abs(np.linalg.norm(query) - 1) < 1e-5
    np.testing.assert_allclose(query, embedder.embed_one(words[:MAX_CHARS]), atol=1e-6)


def test_paper_text_is_title_then_abstract():
    assert paper_text(" A title ", "An abstract. ") == "A title\nAn abstract."
    assert paper_text("Only title", "") == "Only title"
    assert len(paper_text("t", "a" * 10 * MAX_CHARS)) == MAX_CHARS


def test_paper_embedding_uses_title_and_abstract(embedder):
    paper = embedder.embed_paper("Diffusion models", DIFFUSION_TOO)
    np.testing.assert_allclose(paper, embedder.embed_one("Diffusion models\n" + DIFFUSION_TOO), atol=1e-6)


def test_artifact_version_names_model_and_dims(embedder):
    assert embedder.version.startswith("corpus-lsa128-w2v128-")
    assert len(embedder.version.rsplit("-", 1)[1]) == 12  # content digest


def test_both_halves_are_unit_and_weigh_alike(embedder):
    vector = embedder.embed_one(DIFFUSION)
    np.testing.assert_allclose(np.linalg.norm(vector[:HALF]), np.linalg.norm(vector[HALF:]), atol=1e-5)


def test_unknown_words_only_give_zeros(embedder):
    assert not embedder.embed_one("qqqzzzx xxyyzzq").any()


def test_tokens_are_lower_case_words_without_bare_numbers():
    assert tokens("GANs, 3D and 2024: self-supervised x") == ["gans", "3d", "and", "self", "supervised"]


def test_another_format_is_refused(tmp_path):
    path = tmp_path / "old.npz"
    np.savez(path, vectors=np.zeros((2, DIMS)))
    with pytest.raises(ValueError, match="not a format"):
        Embedder(path).embed(["x"])


def _arrays_of(path) -> ModelArrays:
    with np.load(path) as data:
        return ModelArrays(vocab=data["vocab"], idf=data["idf"], lsa=data["lsa"].astype(np.float32),
                           w2v=data["w2v"].astype(np.float32), sif=data["sif"], pc=data["pc"])


def test_the_shipped_format_1_model_has_no_area_metric(embedder):
    assert not _arrays_of(ARTIFACT).has_metric
    np.testing.assert_array_equal(embedder.embed([DIFFUSION], metric=False), embedder.embed([DIFFUSION]))
    assert _arrays_of(ARTIFACT).version() == embedder.version  # the digest format 1 gave it


def test_an_area_metric_maps_the_joined_vector_and_travels_in_the_version(tmp_path, embedder):
    plain = _arrays_of(ARTIFACT)
    rng = np.random.default_rng(0)
    mean = (rng.standard_normal(DIMS) * 0.01).astype(np.float32)
    metric = (np.eye(DIMS) + 0.1 * rng.standard_normal((DIMS, DIMS))).astype(np.float32)
    mapped = ModelArrays(**{**plain.__dict__, "mean": mean, "metric": metric})
    path = tmp_path / "metric.npz"
    version = mapped.save(path)
    assert mapped.has_metric and version != plain.version() and version.startswith(VERSION_PREFIX)
    model = Embedder(path)
    raw = model.embed([DIFFUSION, "", ROBOTS], metric=False)
    np.testing.assert_allclose(raw, embedder.embed([DIFFUSION, "", ROBOTS]), atol=1e-6)
    out = model.embed([DIFFUSION, "", ROBOTS])
    expected = (raw[[0, 2]] - mean) @ metric.T
    np.testing.assert_allclose(out[[0, 2]], expected / np.linalg.norm(expected, axis=1, keepdims=True), atol=1e-5)
    assert not out[1].any()  # no known word: still no vector, whatever the mean
    assert model.version == version and Embedder.of(mapped).version == version


def test_a_metric_of_the_wrong_shape_is_refused(tmp_path):
    plain = _arrays_of(ARTIFACT)
    path = tmp_path / "bad.npz"
    ModelArrays(**{**plain.__dict__, "mean": np.ones(3, np.float32), "metric": np.eye(3, dtype=np.float32)}).save(path)
    with pytest.raises(ValueError, match="area metric"):
        Embedder(path).embed(["x"])
