"""``paperlist passes``: the corpus passes after a write, which follow an ingest in the background.

Without options it shows each pass's state (as ``paperlist status`` does); ``--whole`` asks for the
names pass over the whole alias and the people pass now (after a change to the names' rules, or to
compare with the incremental passes), ``--wait`` waits for them.
"""

from __future__ import annotations

import sys
import time

import click

from services.indexer.celery_app import create_celery, redis_client
from services.indexer.ingest import passes as corpus_passes

from .common import EXIT_FAILURE, console, err_console, friendly, settings
from .status import pass_line

POLL_S = 1.0
WAIT_S = 2 * corpus_passes.LOCK_TTL  # --wait gives up after the passes' time limit twice (one waits for the other)


@click.command()
@click.option("--whole", is_flag=True, help="Run the names pass over the whole alias, and the people pass, now.")
@click.option("--wait", is_flag=True, help=f"Wait until no pass is queued or running (at most {WAIT_S} s).")
@friendly
def passes(whole: bool, wait: bool) -> None:
    """The corpus passes (names, people): their state, or a whole pass on demand."""
    config = settings()
    client = redis_client(config)
    if whole:
        corpus_passes.want_all(client, config.index)  # both passes over every paper
        corpus_passes.request(create_celery(config), client, config.index, config.queue)
        console.print("names pass over the whole alias and people pass asked for")
    deadline = time.monotonic() + WAIT_S
    while wait and _busy(corpus_passes.state(client, config.index)):
        if time.monotonic() > deadline:
            err_console.print(f"[red]error:[/red] the passes are still queued or running after {WAIT_S} s: "
                              "is a worker running (`paperlist status`)?")
            sys.exit(EXIT_FAILURE)
        time.sleep(POLL_S)
    for name, state in corpus_passes.state(client, config.index).items():
        console.print(f"{name} pass: {pass_line(state)}")


def _busy(states: dict[str, dict]) -> bool:
    return any(s.get("state") in ("queued", "running") for s in states.values())
