"""What every command shares: the consoles, exit codes, settings and the error boundary."""

from __future__ import annotations

import functools
import sys

import elastic_transport
import redis
from elasticsearch import ApiError
from elasticsearch.helpers import BulkIndexError
from kombu.exceptions import OperationalError as BrokerError
from rich.console import Console

from services.indexer.ingest.dispatch import IngestError
from services.indexer.rebuild.state import ReindexError
from services.indexer.sources import SourceError
from services.ops import StackError
from services.settings import Settings, load_settings

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)

EXIT_NOTHING_READ = 1
EXIT_FAILURE = 2


def friendly(func):
    """Turn the failures an operator meets into one line and an exit status."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except (StackError, IngestError, SourceError, ReindexError) as exc:
            err_console.print(f"[red]error:[/red] {exc}")
        except elastic_transport.ConnectionError as exc:
            err_console.print(f"[red]error:[/red] Elasticsearch is not reachable ({exc.message})")
        except (elastic_transport.TransportError, ApiError) as exc:
            err_console.print(f"[red]error:[/red] Elasticsearch failed: {exc}")
        except BulkIndexError as exc:
            reasons = {str((next(iter(e.values())).get("error") or {}).get("reason", "?"))[:200] for e in exc.errors}
            err_console.print(f"[red]error:[/red] Elasticsearch refused writes: {'; '.join(sorted(reasons)[:3])}")
        except redis.RedisError as exc:
            err_console.print(f"[red]error:[/red] Redis is not reachable: {exc}")
        except BrokerError as exc:  # Celery's wrapping of the same Redis, met while sending a task
            err_console.print(f"[red]error:[/red] the task broker (Redis) is not reachable: {exc}")
        except KeyboardInterrupt:
            err_console.print("interrupted; work already queued goes on in the workers")
        sys.exit(EXIT_FAILURE)

    return wrapper


def settings() -> Settings:
    try:
        return load_settings()
    except ValueError as exc:
        err_console.print(f"[red]error:[/red] bad configuration: {exc}")
        sys.exit(EXIT_FAILURE)
