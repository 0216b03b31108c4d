"""``paperlist up`` and ``paperlist down``: the local stack, started and stopped; ``purge-edge``
empties the front's edge cache."""

from __future__ import annotations

import click
import redis

from services.indexer.celery_app import create_celery
from services.indexer.follow.seed import seed
from services.indexer.ingest.dispatch import ensure_index
from services.ops import LocalStack
from services.ops.nginx import LocalNginx
from services.search.engine.client import make_client

from .common import console, friendly, settings
from .ingest import print_summary, run_ingest


@click.command()
@click.option("--no-sample", is_flag=True, help="Do not ingest the bundled sample corpus into an empty index.")
@friendly
def up(no_sample: bool) -> None:
    """Start Elasticsearch, Redis, a Celery worker and the web service (reusing what runs)."""
    config = settings()
    stack = LocalStack(config, log=lambda line: console.print(f"[dim]•[/dim] {line}"))
    stack.ensure_services()
    celery = create_celery(config)
    stack.ensure_worker(celery)
    es = make_client(config)
    client = redis.Redis.from_url(config.redis_url)
    ensure_index(config, es, client, config.index)
    if not no_sample and es.count(index=config.index)["count"] == 0:
        console.print(f"[dim]•[/dim] Index is empty: ingesting the sample corpus from {config.sample_dir}")
        summary = run_ingest(config, celery, es, client, [str(config.sample_dir)], prune=False)
        print_summary(summary)
    if config.follow:
        if config.follow_seed:
            added = seed(es, config.index, config.follow_seed, config.follow_base, config.follow_interval)
            if added:
                console.print(f"[dim]•[/dim] Following {added} source(s) from {config.follow_seed}")
        stack.ensure_scheduler()
    stack.ensure_web()
    console.print(f"paperlist is up: [bold]{stack.url}[/bold]")


@click.command()
@friendly
def down() -> None:
    """Stop what `paperlist up` started (and nothing else)."""
    stopped = LocalStack(settings()).down()
    console.print(f"stopped: {', '.join(stopped)}" if stopped else "nothing to stop")


@click.command("purge-edge")
@friendly
def purge_edge() -> None:
    """Empty the edge cache of the local front (nginx asks the app again; nothing to restart)."""
    removed = LocalNginx(settings()).purge_edge()
    console.print(f"edge cache: {removed} entr{'y' if removed == 1 else 'ies'} removed")
