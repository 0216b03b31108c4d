"""``paperlist status``: the health of each part, for people or as JSON."""

from __future__ import annotations

import click

from services.indexer.status import collect_status

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
    report.render(console)
