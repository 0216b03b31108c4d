"""``paperlist maps``: ask the workers for venue-years' maps now (an ingest and a reindex ask by themselves)."""

from __future__ import annotations

import click

from services.indexer.celery_app import create_celery
from services.indexer.maps.build import request_maps

from .common import console, friendly, settings


def _venue_year(value: str) -> tuple[str, int]:
    conference, _, year = value.partition(":")
    if not conference or not year.isdigit():
        raise click.BadParameter(f"'{value}' is not CONFERENCE:YEAR, such as icml:2026")
    return conference.lower(), int(year)


@click.command()
@click.argument("venue_years", nargs=-1)
@click.option("--force", is_flag=True, help="Lay out again even where the papers are those of the stored map.")
@friendly
def maps(venue_years: tuple[str, ...], force: bool) -> None:
    """Build the maps of VENUE_YEARS (CONFERENCE:YEAR, e.g. icml:2026), or of every venue-year."""
    config = settings()
    wanted = [_venue_year(v) for v in venue_years] or None
    request_maps(create_celery(config), config, config.index, wanted, force)
    scope = ", ".join(f"{c} {y}" for c, y in wanted) if wanted else f"every venue-year with {config.map_min_papers}+ papers"
    console.print(f"maps of {scope} asked for; the workers build them (`paperlist status` shows the queue)")
