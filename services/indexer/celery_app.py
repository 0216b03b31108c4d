"""Celery application factory: broker, reliability settings and the task base class."""

from __future__ import annotations

from functools import cached_property

import redis
from celery import Celery, Task
from elasticsearch import Elasticsearch
from redis.backoff import NoBackoff
from redis.retry import Retry

from services.search.engine.client import make_client
from services.settings import Settings

# Longer than any task (a full rebuild included), so Redis never hands a running task's
# message to a second worker; a worker killed outright is covered by the ingest CLI
# re-sending lost batches and by the rebuild's lock expiring.
VISIBILITY_TIMEOUT = 4 * 3600
# Seconds to connect to Redis (broker, results, the CLI's own client) and, for the CLI's
# client, to wait for an answer: a dead or hung Redis is reported within seconds.
REDIS_CONNECT_TIMEOUT = 3
REDIS_SOCKET_TIMEOUT = 4


class IndexerTask(Task):
    """Task base with lazily built clients: created in each worker process, after fork."""

    abstract = True

    @property
    def settings(self) -> Settings:
        return self.app.paperlist_settings  # type: ignore[attr-defined]

    @cached_property
    def es(self) -> Elasticsearch:
        return make_client(self.settings, request_timeout=60)

    @cached_property
    def redis(self) -> redis.Redis:
        return redis_client(self.settings)


def redis_client(settings: Settings) -> redis.Redis:
    """A Redis client that gives up within seconds instead of hanging on a dead or stopped server."""
    # One retry, on a dropped connection only: a timeout is not retried (it would double the wait).
    return redis.Redis.from_url(settings.redis_url, socket_connect_timeout=REDIS_CONNECT_TIMEOUT,
                                socket_timeout=REDIS_SOCKET_TIMEOUT, retry_on_timeout=False,
                                retry=Retry(NoBackoff(), 1, supported_errors=(redis.ConnectionError,)))


def create_celery(settings: Settings) -> Celery:
    app = Celery("paperlist", broker=settings.redis_url, backend=settings.redis_url,
                 task_cls=IndexerTask)
    app.paperlist_settings = settings  # type: ignore[attr-defined]
    app.conf.update(
        task_default_queue=settings.queue,
        task_serializer="json",
        result_serializer="json",
        accept_content=["json"],
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        worker_max_tasks_per_child=500,
        task_track_started=True,
        result_expires=7 * 24 * 3600,
        broker_connection_retry_on_startup=True,
        broker_transport_options={"visibility_timeout": VISIBILITY_TIMEOUT,
                                  "socket_connect_timeout": REDIS_CONNECT_TIMEOUT,
                                  "socket_timeout": 2 * REDIS_SOCKET_TIMEOUT},
        broker_connection_timeout=REDIS_CONNECT_TIMEOUT,
        redis_socket_connect_timeout=REDIS_CONNECT_TIMEOUT,
        # Sending a task (the CLI): a few quick attempts, not kombu's default patience.
        task_publish_retry_policy={"max_retries": 2, "interval_start": 0, "interval_step": 0.5,
                                   "interval_max": 1},
        result_backend_transport_options={"visibility_timeout": VISIBILITY_TIMEOUT},
        worker_hijack_root_logger=False,
        worker_send_task_events=False,
    )
    app.autodiscover_tasks(["services.indexer"], related_name="tasks", force=True)
    return app
