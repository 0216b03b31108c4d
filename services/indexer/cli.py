"""The ``paperlist`` ops command: up, down, status, ingest, reindex.

Failures an operator can cause or meet (a missing file, Elasticsearch down, no worker)
end with one ``error:`` line and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import functools
import sys
import time
from pathlib import Path

import click
import elastic_transport
import redis
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from services.search import indices
from services.search.client import make_client
from services.settings import Settings, load_settings

from .celery_app import create_celery
from .ingest import Ingest, IngestError, Summary, ensure_index
from .reindex import ReindexError, ReindexState, request_reindex, rollback
from .sources import SourceError
from .stack import LocalStack, StackError
from .status import collect_status

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)

EXIT_NOTHING_READ = 1
EXIT_FAILURE = 2


def _friendly(func):
    """Turn the failures an operator meets into one line and an exit status."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except (StackError, IngestError, SourceError, ReindexError) as exc:
            err_console.print(f"[red]error:[/red] {exc}")
        except elastic_transport.ConnectionError as exc:
            err_console.print(f"[red]error:[/red] Elasticsearch is not reachable ({exc.message})")
        except elastic_transport.TransportError as exc:
            err_console.print(f"[red]error:[/red] Elasticsearch failed: {exc}")
        except redis.RedisError as exc:
            err_console.print(f"[red]error:[/red] Redis is not reachable: {exc}")
        except KeyboardInterrupt:
            err_console.print("interrupted; work already queued goes on in the workers")
        sys.exit(EXIT_FAILURE)

    return wrapper


def _settings() -> Settings:
    try:
        return load_settings()
    except ValueError as exc:
        err_console.print(f"[red]error:[/red] bad configuration: {exc}")
        sys.exit(EXIT_FAILURE)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """paperlist: search engine for AI conference papers — operations."""


@main.command()
@click.option("--no-sample", is_flag=True, help="Do not ingest the bundled sample corpus into an empty index.")
@_friendly
def up(no_sample: bool) -> None:
    """Start Elasticsearch, Redis, a Celery worker and the web service (reusing what runs)."""
    settings = _settings()
    stack = LocalStack(settings, log=lambda line: console.print(f"[dim]•[/dim] {line}"))
    stack.ensure_services()
    celery = create_celery(settings)
    stack.ensure_worker(celery)
    es = make_client(settings)
    client = redis.Redis.from_url(settings.redis_url)
    ensure_index(settings, es, client, settings.index)
    if not no_sample and es.count(index=settings.index)["count"] == 0:
        console.print(f"[dim]•[/dim] Index is empty: ingesting the sample corpus from {settings.sample_dir}")
        summary = _run_ingest(settings, celery, es, client, [str(settings.sample_dir)], prune=False)
        _print_summary(summary)
    stack.ensure_web()
    console.print(f"paperlist is up: [bold]{stack.url}[/bold]")


@main.command()
@_friendly
def down() -> None:
    """Stop what `paperlist up` started (and nothing else)."""
    stopped = LocalStack(_settings()).down()
    console.print(f"stopped: {', '.join(stopped)}" if stopped else "nothing to stop")


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@_friendly
def status(as_json: bool) -> None:
    """Elasticsearch health, the alias, papers per conference, queue depth, a running reindex."""
    report = collect_status(_settings())
    if as_json:
        click.echo(report.to_json())
        return
    report.render(console)


@main.command()
@click.argument("sources", nargs=-1, required=True)
@click.option("--prune", is_flag=True, help="Remove papers of the same conference-years missing from the sources.")
@click.option("--if-empty", is_flag=True, help="Do nothing when the index already holds papers.")
@click.option("--rejects-dir", type=click.Path(file_okay=False, path_type=Path),
              help="Folder for the JSONL file of rejected records (default: run/rejects).")
@click.option("--batch-size", type=click.IntRange(1, 10000), help="Records per Celery task.")
@_friendly
def ingest(sources: tuple[str, ...], prune: bool, if_empty: bool, rejects_dir: Path | None,
           batch_size: int | None) -> None:
    """Ingest paperlists files, folders or http(s) URLs through the Celery workers."""
    settings = _settings()
    es = make_client(settings)
    client = redis.Redis.from_url(settings.redis_url)
    celery = create_celery(settings)
    if if_empty and indices.current_index(es, settings.index) and es.count(index=settings.index)["count"]:
        console.print(f"{settings.index} already holds papers; nothing to do (--if-empty)")
        return
    summary = _run_ingest(settings, celery, es, client, list(sources), prune=prune,
                          rejects_dir=rejects_dir, batch_size=batch_size)
    _print_summary(summary)
    if summary.abandoned_batches:
        err_console.print(f"[red]error:[/red] {summary.abandoned_batches} batch(es) failed on every attempt; "
                          "their records are in the rejects file")
        sys.exit(EXIT_FAILURE)
    if summary.read == 0:
        sys.exit(EXIT_NOTHING_READ)


def _run_ingest(settings, celery, es, client, sources, *, prune, rejects_dir=None, batch_size=None) -> Summary:
    job = Ingest(settings, celery, es, client, prune=prune, rejects_dir=rejects_dir, batch_size=batch_size)
    columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn()]
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("reading", total=None)

        def show(counts, read_so_far, reading_done):
            bar.update(task, description="indexing" if reading_done else "reading",
                       completed=counts.processed, total=read_so_far or None)

        return job.execute(sources, progress=show)


def _print_summary(summary: Summary) -> None:
    for problem in summary.problems:
        err_console.print(f"[yellow]warning:[/yellow] {problem}")
    table = Table(show_header=False, box=None, pad_edge=False)
    for name in ("read", "indexed", "unchanged", "rejected"):
        table.add_row(name, f"{getattr(summary, name):,}")
    if summary.pruned is not None:
        years = summary.pruned_scope
        scope = ", ".join(f"{c} {y}" for c, y in years) if len(years) <= 5 else f"{len(years)} conference-years"
        table.add_row("pruned", f"{summary.pruned:,} (from {scope})")
    if summary.resent:
        table.add_row("re-sent", f"{summary.resent:,} batch(es)")
    console.print(table)
    rate = summary.read / summary.seconds if summary.seconds else 0
    console.print(f"{summary.files} file(s) in {summary.seconds:.1f}s ({rate:,.0f} records/s), run {summary.run_id}")
    if summary.rejects_path:
        console.print(f"rejected records and reasons: {summary.rejects_path}")


@main.command()
@click.option("--no-wait", is_flag=True, help="Only enqueue the rebuild and print its task id.")
@click.option("--from-sources", is_flag=True, help="Re-read every recorded source (after normalisation changes).")
@click.option("--rollback", "roll_back", is_flag=True, help="Point the alias back at the previous index.")
@_friendly
def reindex(no_wait: bool, from_sources: bool, roll_back: bool) -> None:
    """Rebuild the index into a new versioned index and swap the alias, without downtime."""
    settings = _settings()
    client = redis.Redis.from_url(settings.redis_url)
    if roll_back:
        old, new = rollback(settings, make_client(settings), client, settings.index)
        console.print(f"rolled back: {settings.index} -> {new} (was {old})")
        return
    run_id, task_id = request_reindex(client, create_celery(settings), settings, settings.index, from_sources)
    console.print(f"reindex {run_id} queued (task {task_id})")
    if no_wait:
        return
    final = _follow_reindex(ReindexState(client, settings.index), run_id)
    if final.get("phase") != "done":
        raise ReindexError(f"reindex {run_id} {final.get('phase')}: {final.get('message', '')}")
    console.print(f"reindex {run_id} done: {final.get('message', '')}")


def _follow_reindex(state: ReindexState, run_id: str) -> dict:
    columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TimeRemainingColumn()]
    queued_since = time.monotonic()
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("queued", total=None)
        while True:
            current = state.load()
            if current.get("run_id") != run_id:
                return {"phase": "superseded", "message": f"another run ({current.get('run_id')}) replaced it"}
            phase = current.get("phase", "queued")
            if phase in ("done", "failed", "abandoned", "refused"):
                return current
            if phase == "queued" and time.monotonic() - queued_since > 30:
                phase = "queued (is a worker running?)"
            bar.update(task, description=phase, completed=current.get("copied", 0),
                       total=current.get("total") or None)
            time.sleep(0.5)


if __name__ == "__main__":
    main()
