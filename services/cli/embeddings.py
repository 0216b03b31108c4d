"""``paperlist embeddings train``: learn the corpus embedding model from sources and write its artifact.

The shipped model (``services/search/records/models/``) is trained on ``data/sample``; an
operator trains one on the full corpus, stores it outside the repo and points
``PAPERLIST_EMBEDDING_MODEL`` at it, then runs ``paperlist reindex`` (which re-embeds
the papers whose stored ``embedding_version`` is not the new model's).
"""

from __future__ import annotations

import time
from pathlib import Path

import click

from services.indexer.training.embeddings import TrainingOptions, corpus_records, train

from .common import EXIT_FAILURE, EXIT_NOTHING_READ, console, err_console, friendly

_DEFAULTS = TrainingOptions()


@click.group()
def embeddings() -> None:
    """The corpus embedding model."""


@embeddings.command("train")
@click.argument("sources", nargs=-1, required=True)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Where to write the model (.npz).")
@click.option("--min-df", type=click.IntRange(1, 1000), default=_DEFAULTS.min_df, show_default=True,
              help="A word must occur in this many papers.")
@click.option("--max-vocab", type=click.IntRange(1000, 500_000), default=_DEFAULTS.max_vocab, show_default=True,
              help="Keep at most this many words (the artifact's size).")
@click.option("--epochs", type=click.IntRange(1, 50), default=_DEFAULTS.epochs, show_default=True,
              help="word2vec passes over the texts.")
@click.option("--workers", type=click.IntRange(1, 64), default=_DEFAULTS.workers, show_default=True,
              help="word2vec threads (more than 1 is faster but not reproducible).")
@click.option("--max-tokens", type=click.IntRange(100_000, 10_000_000_000), default=_DEFAULTS.max_tokens,
              show_default=True, help="Words word2vec reads over all epochs: a larger corpus trains fewer epochs, "
                                      "then one epoch over a seeded draw of its papers.")
@click.option("--area-weight", type=click.FloatRange(0, 10), default=_DEFAULTS.area_weight, show_default=True,
              help="Weight of the area metric learned from curated ICLR primary areas (the held-out half's "
                   "labels are never read); 0: none.")
@friendly
def train_command(sources: tuple[str, ...], out: Path, min_df: int, max_vocab: int, epochs: int,
                  workers: int, max_tokens: int, area_weight: float) -> None:
    """Train the model on the papers of SOURCES (files, folders) and write it to --out."""
    started = time.perf_counter()
    records = list(corpus_records(sources))
    texts = [r.text for r in records]
    labelled = [(r.text, r.area) for r in records if r.area]
    if not texts:
        err_console.print("[red]error:[/red] no papers with a title in the sources")
        raise SystemExit(EXIT_NOTHING_READ)
    read = time.perf_counter()
    stages: dict[str, float] = {}
    try:
        model = train(texts, TrainingOptions(min_df=min_df, max_vocab=max_vocab, epochs=epochs, workers=workers,
                                              max_tokens=max_tokens, area_weight=area_weight), stages, labelled)
    except ValueError as exc:
        err_console.print(f"[red]error:[/red] {exc}")
        raise SystemExit(EXIT_FAILURE) from None
    version = model.save(out)
    metric = f"area metric from {len(labelled):,} labelled papers" if model.has_metric else "no area metric"
    console.print(f"{out}: {version}, {len(model.vocab):,} words, {len(texts):,} papers, {metric}; "
                  f"read {read - started:.1f} s, trained {time.perf_counter() - read:.1f} s, "
                  f"{out.stat().st_size / 1e6:.1f} MB ({', '.join(f'{k} {v:.1f} s' for k, v in stages.items())})")



