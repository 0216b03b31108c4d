"""``paperlist ingest``: files, folders or URLs through the Celery workers, with progress."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from services.indexer.celery_app import create_celery, redis_client
from services.indexer.ingest.dispatch import Ingest, Summary
from services.search.engine import indices
from services.search.engine.client import make_client

from .common import EXIT_FAILURE, EXIT_NOTHING_READ, console, err_console, friendly, settings


@click.command()
@click.argument("sources", nargs=-1, required=True)
@click.option("--prune", is_flag=True, help="Remove papers of the same conference-years missing from the sources.")
@click.option("--if-empty", is_flag=True, help="Do nothing when the index already holds papers.")
@click.option("--rejects-dir", type=click.Path(file_okay=False, path_type=Path),
              help="Folder for the JSONL file of rejected records (default: run/rejects).")
@click.option("--batch-size", type=click.IntRange(1, 10000), help="Records per Celery task.")
@click.option("--wait-passes", is_flag=True,
              help="Answer once the corpus passes are done too (by default they follow in the background).")
@friendly
def ingest(sources: tuple[str, ...], prune: bool, if_empty: bool, rejects_dir: Path | None,
           batch_size: int | None, wait_passes: bool) -> None:
    """Ingest paperlists files, folders or http(s) URLs through the Celery workers."""
    config = settings()
    es = make_client(config)
    client = redis_client(config)
    celery = create_celery(config)
    if if_empty and indices.current_index(es, config.index) and es.count(index=config.index)["count"]:
        console.print(f"{config.index} already holds papers; nothing to do (--if-empty)")
        return
    summary = run_ingest(config, celery, es, client, list(sources), prune=prune,
                         rejects_dir=rejects_dir, batch_size=batch_size, wait_passes=wait_passes)
    print_summary(summary)
    if summary.abandoned_batches:
        err_console.print(f"[red]error:[/red] {summary.abandoned_batches} batch(es) failed on every attempt; "
                          "their records are in the rejects file")
        sys.exit(EXIT_FAILURE)
    if summary.read == 0:
        sys.exit(EXIT_NOTHING_READ)


def run_ingest(config, celery, es, client, sources, *, prune, rejects_dir=None, batch_size=None,
               wait_passes=False) -> Summary:
    job = Ingest(config, celery, es, client, prune=prune, rejects_dir=rejects_dir, batch_size=batch_size,
                 wait_passes=wait_passes)
    columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()]
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("reading", total=None)

        def show(counts, read_so_far, reading_done):
            bar.update(task, description="indexing" if reading_done else "reading",
                       completed=counts.processed, total=read_so_far or None)

        return job.execute(sources, progress=show)


def _years(years) -> str:
    """Conference-years by name when they are few, else how many."""
    return ", ".join(f"{c} {y}" for c, y in years) if len(years) <= 5 else f"{len(years)} conference-years"


def print_summary(summary: Summary) -> None:
    for problem in summary.problems:
        err_console.print(f"[yellow]warning:[/yellow] {problem}")
    table = Table(show_header=False, box=None, pad_edge=False)
    for name in ("read", "indexed", "unchanged", "rejected"):
        table.add_row(name, f"{getattr(summary, name):,}")
    if summary.pruned is not None:
        table.add_row("pruned", f"{summary.pruned:,} (from {_years(summary.pruned_scope)})")
    if summary.renamed is not None:
        table.add_row("named", f"{summary.renamed:,} paper(s) (names others give them, mentions)")
    if summary.people is not None:
        table.add_row("people", f"{summary.people:,} paper(s) (who each author is)")
    if summary.passes:
        table.add_row("passes", f"{', '.join(summary.passes)} following in the background (`paperlist status`)")
    if summary.maps:
        table.add_row("maps", f"asked for {_years(summary.maps)} (built by the workers)")
    if summary.resent:
        table.add_row("re-sent", f"{summary.resent:,} batch(es)")
    console.print(table)
    rate = summary.read / summary.seconds if summary.seconds else 0
    console.print(f"{summary.files} file(s) in {summary.seconds:.1f}s ({rate:,.0f} records/s), run {summary.run_id}")
    if summary.rejects_path:
        console.print(f"rejected records and reasons: {summary.rejects_path}")
