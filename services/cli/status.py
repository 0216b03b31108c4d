"""``paperlist status``: the health of each part, for people or as JSON."""

from __future__ import annotations

import time

import click
from rich.console import Console
from rich.table import Table

from services.indexer.status import StatusReport, collect_status

from .common import console, friendly, settings


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@friendly
def status(as_json: bool) -> None:
    """Elasticsearch health, the alias, papers per conference, queue depth, a running reindex."""
    report = collect_status(settings())
    if as_json:
        click.echo(report.to_json())
        return
    render(report, console)


def render(report: StatusReport, out: Console) -> None:
    """The report for a person at a terminal: health first, then the venues and what the catalogue lacks."""
    out.print(f"Elasticsearch: [bold]{report.elasticsearch}[/bold]")
    out.print(f"alias {report.alias} -> {report.index or '(none)'}  ({report.total:,} papers)")
    for info in report.indices:
        mark = "*" if info["aliased"] else " "
        out.print(f"  {mark} {info['name']}  v{info['schema_version']}  {info['docs']:,} docs")
    out.print(f"Redis: [bold]{report.redis}[/bold]; queue {report.queue}: "
                  f"{'?' if report.queue_depth is None else report.queue_depth} waiting")
    if report.reindex:
        r = report.reindex
        out.print(f"reindex {r.get('run_id')}: {r.get('phase')} — {r.get('copied', 0):,}/"
                      f"{r.get('total', 0):,} copied{'; ' + r['message'] if r.get('message') else ''}")
    for name, state in report.passes.items():
        out.print(f"{name} pass: {pass_line(state)}")
    if report.followed:
        f = report.followed
        out.print(f"followed sources: {f['sources']:,}, {len(f['failing'])} failing, {len(f['alerts'])} refused")
        for url, error in {**f["failing"], **f["alerts"]}.items():
            out.print(f"  [yellow]{url}[/yellow]: {error}")
    if report.conferences:
        table = Table("venue", "kind", "papers", box=None)
        for slug, count in report.conferences:
            table.add_row(slug, report.kinds.get(slug, ""), f"{count:,}")
        out.print(table)
        _render_catalogue(report, out)
    for problem in report.problems:
        out.print(f"[yellow]problem:[/yellow] {problem}")


def pass_line(state: dict) -> str:
    """``done 4 s ago (12 papers written)``, ``running for 30 s``, ``queued``, with the written papers it waits for."""
    now = time.time()
    what = state.get("state") or "never run"
    if what == "running" and state.get("started_at"):
        what += f" for {now - state['started_at']:.0f} s"
    elif what in ("done", "failed") and state.get("finished_at"):
        what += f" {now - state['finished_at']:.0f} s ago"
        result = state.get("result") or {}
        if "updated" in result:
            what += f" ({result['updated']:,} paper(s) written{', ' + result['mode'] if result.get('mode') else ''})"
        if state.get("error"):
            what += f": {state['error']}"
    if state.get("pending"):
        what += f"; {state['pending']:,} written paper(s) wait for the next"
    return what


def _render_catalogue(report: StatusReport, out: Console) -> None:
    known = len(report.conferences)
    if report.unknown_venues:
        out.print(f"[yellow]venues not in the catalogue:[/yellow] {', '.join(report.unknown_venues)} "
                      f"(of {known}; listed with a label made from the slug: add them to "
                      "services/search/catalogue/venues.toml)")
    else:
        out.print(f"catalogue: all {known} venues known")
    if report.unmapped_statuses:
        words = ", ".join(f"{venue} {raw!r} ({n:,})" for venue, raw, n in report.unmapped_statuses)
        out.print(f"[yellow]status words no rule reads:[/yellow] {words} (taken as accepted; map them "
                      "in venues.toml)")
    else:
        out.print(f"status words: all {report.status_words} mapped (venue, status) pairs")
