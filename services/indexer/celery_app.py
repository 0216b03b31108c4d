"""Celery application factory: broker, reliability settings and the task base class."""

from __future__ import annotations

from functools import cached_property

import redis
from celery import Celery, Task
from elasticsearch import Elasticsearch

from services.search.client import make_client
from services.settings import Settings

# Longer than any task (a full rebuild included), so Redis never hands a running task's
# message to a second worker; a worker killed outright is covered by the ingest CLI
# re-sending lost batches and by the rebuild's lock expiring.
VISIBILITY_TIMEOUT = 4 * 3600


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
        return redis.Redis.from_url(self.settings.redis_url)


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
        broker_transport_options={"visibility_timeout": VISIBILITY_TIMEOUT},
        result_backend_transport_options={"visibility_timeout": VISIBILITY_TIMEOUT},
        worker_hijack_root_logger=False,
        worker_send_task_events=False,
    )
    app.autodiscover_tasks(["services.indexer"], related_name="tasks", force=True)
    return app
