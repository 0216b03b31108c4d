"""``paperlist sources add|list|remove|check``: the followed sources an operator keeps (issue 47).

A followed source is polled on a schedule by the workers (``paperlist up`` starts the scheduler) and
ingested when it changed; ``check`` polls one now and says what happened. Bad input ends with an
``error:`` line and a non-zero exit, as every command does.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click
from celery.exceptions import TimeoutError as CeleryTimeoutError
from rich.table import Table

from services import task_names
from services.indexer.celery_app import create_celery
from services.search.engine import followed_store
from services.search.engine.client import make_client
from services.search.records.followed import InvalidSource, new_source

from .common import EXIT_FAILURE, console, err_console, friendly, settings

CHECK_TIMEOUT = 1800  # a changed source is ingested by the check: as long as a poll may take


def _fail(message: str) -> None:
    err_console.print(f"[red]error:[/red] {message}")
    sys.exit(EXIT_FAILURE)


@click.group()
def sources() -> None:
    """Followed sources: paperlists files polled on a schedule and ingested when they change."""


@sources.command("add")
@click.argument("url")
@click.option("--venue-year", "venue_years", multiple=True, metavar="CONF:YEAR",
              help="A venue-year the file lists (repeatable; default: read from its records at the first poll).")
@click.option("--interval", default="6h", show_default=True, help="How often to poll: 6h, 30m, 2d or seconds.")
@click.option("--partial", is_flag=True, help="The file is not the whole list of its venue-years: never prune.")
@friendly
def add(url: str, venue_years: tuple[str, ...], interval: str, partial: bool) -> None:
    """Follow URL (an http(s) URL or the path of a paperlists file); it is polled at the next tick."""
    config = settings()
    if "://" not in url and Path(url).exists():  # an operator's own file, named from where they stand
        url = str(Path(url).resolve())
    try:
        source = new_source(url, venue_years, interval, not partial, allow_paths=True)
    except InvalidSource as exc:
        _fail(str(exc))
    es = make_client(config)
    index = followed_store.index_of(config.index)
    if followed_store.load(es, index, source.url):
        _fail(f"{source.url} is already followed (remove it first to change it)")
    followed_store.save(es, index, source)
    console.print(f"following {source.url} every {source.interval_s:,} s (id {source.id[:12]})")


@sources.command("list")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@friendly
def list_sources(as_json: bool) -> None:
    """Every followed source: last checked, last changed, papers, next check, failures."""
    import json

    config = settings()
    found = followed_store.all_sources(make_client(config), followed_store.index_of(config.index))
    if as_json:
        click.echo(json.dumps([{**s.to_document(), "id": s.id, "failing": s.failing} for s in found], indent=2))
        return
    table = Table("source", "venue-years", "checked", "changed", "papers", "next", "last", box=None)
    for s in found:
        last = s.outcome + (f" ({s.failures} failures: {s.last_error})" if s.failures else "")
        last += f" [yellow]{s.alert}[/yellow]" if s.alert else ""
        table.add_row(s.url, ", ".join(s.venue_years), s.checked_at or "never", s.changed_at or "never",
                      "" if s.papers is None else f"{s.papers:,}", s.next_check or "now", last)
    console.print(table)
    console.print(f"{len(found)} followed source(s)")


@sources.command("remove")
@click.argument("url")
@friendly
def remove(url: str) -> None:
    """Stop following URL (or its id); its papers stay in the index."""
    config = settings()
    if not followed_store.delete(make_client(config), followed_store.index_of(config.index), url.strip()):
        _fail(f"{url[:200]} is not followed (`paperlist sources list` shows those that are)")
    console.print(f"no longer following {url}")


@sources.command("check")
@click.argument("url")
@click.option("--no-wait", is_flag=True, help="Only send the poll and print its task id.")
@friendly
def check(url: str, no_wait: bool) -> None:
    """Poll URL (or its id) now, whatever its schedule; print what the poll did."""
    config = settings()
    found = followed_store.load(make_client(config), followed_store.index_of(config.index), url.strip())
    if found is None:
        _fail(f"{url[:200]} is not followed (`paperlist sources add` it first)")
    pending = create_celery(config).send_task(task_names.POLL_SOURCE, args=[config.index, found.url, True],
                                              queue=config.queue)
    if no_wait:
        console.print(f"poll of {found.url} sent (task {pending.id})")
        return
    try:
        result = pending.get(timeout=CHECK_TIMEOUT)
    except CeleryTimeoutError:
        _fail(f"no answer in {CHECK_TIMEOUT} s: is a worker running (`paperlist status`)?")
    console.print(f"{found.url}: [bold]{result['outcome']}[/bold] {result.get('reason') or ''}".rstrip())
    if result["outcome"] == "ingested":
        console.print(f"read {result['records']:,}, indexed {result['indexed']:,}, unchanged {result['unchanged']:,}, "
                      f"rejected {result['rejected']:,}, pruned {result['pruned']:,} in {result['seconds']:.1f} s")
    if result["outcome"] in ("failed", "refused"):
        sys.exit(EXIT_FAILURE)
