"""``paperlist reindex``: rebuild into a new index and swap the alias, or roll back."""

from __future__ import annotations

import time

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from services.indexer.celery_app import create_celery, redis_client
from services.indexer.maps.build import request_maps
from services.indexer.rebuild.control import request_reindex, rollback
from services.indexer.rebuild.state import ReindexError, ReindexState
from services.search.engine.client import make_client

from .common import console, friendly, settings


@click.command()
@click.option("--no-wait", is_flag=True, help="Only enqueue the rebuild and print its task id.")
@click.option("--from-sources", is_flag=True, help="Re-read every recorded source (after normalisation changes).")
@click.option("--rollback", "roll_back", is_flag=True, help="Point the alias back at the previous index.")
@friendly
def reindex(no_wait: bool, from_sources: bool, roll_back: bool) -> None:
    """Rebuild the index into a new versioned index and swap the alias, without downtime."""
    config = settings()
    client = redis_client(config)
    if roll_back:
        old, new = rollback(config, make_client(config), client, config.index)
        console.print(f"rolled back: {config.index} -> {new} (was {old})")
        request_maps(create_celery(config), config, config.index)  # those whose papers differ are made again
        return
    run_id, task_id = request_reindex(client, create_celery(config), config, config.index, from_sources)
    console.print(f"reindex {run_id} queued (task {task_id})")
    if no_wait:
        return
    final = _follow_reindex(ReindexState(client, config.index), run_id)
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
