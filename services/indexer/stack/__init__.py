"""The local stack behind ``paperlist up`` / ``down``: Elasticsearch, Redis, a worker, the web.

Each piece is reused when it already answers and started (with a pid file in the run
folder) when it does not; ``down`` stops exactly the processes that have pid files.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

import requests
from celery import Celery

from services.settings import PROJECT_ROOT, Settings

from .elasticsearch import LocalElasticsearch
from .processes import Managed, StackError, wait_until
from .redis import LocalRedis

__all__ = ["LocalStack", "StackError"]

Log = Callable[[str], None]


class LocalStack:
    def __init__(self, settings: Settings, log: Log = print):
        self.settings = settings
        self.log = log
        self.elasticsearch = LocalElasticsearch(settings)
        self.redis = LocalRedis(settings)
        self.worker = Managed("worker", settings.run_dir)
        self.web = Managed("web", settings.run_dir)

    @property
    def url(self) -> str:
        return f"http://{self.settings.host}:{self.settings.port}"

    def ensure_services(self) -> None:
        """Elasticsearch and Redis, the two stores everything else needs."""
        self.redis.ensure(self.log)
        self.elasticsearch.ensure(self.log)

    def ensure_worker(self, celery: Celery) -> None:
        if self.worker.pid():
            return
        self.log(f"Celery worker: starting (queue {self.settings.queue})")
        argv = [sys.executable, "-m", "celery", "-A", "services.indexer.worker", "worker",
                "-Q", self.settings.queue, "--concurrency", str(self.settings.worker_concurrency),
                "--loglevel", "INFO", "-n", f"paperlist-{os.getpid()}@%h"]
        self.worker.start(argv, env=self._env(), cwd=PROJECT_ROOT)
        wait_until(lambda: bool(celery.control.ping(timeout=1)) or not self.worker.pid(), 60,
                   "the Celery worker", self.worker.logfile)
        if not self.worker.pid():
            raise StackError(f"the Celery worker exited at start; see {self.worker.logfile}")

    def ensure_web(self) -> None:
        if self.web.pid() or self._web_answers():
            return
        self.log(f"Web: starting gunicorn on {self.url}")
        argv = [sys.executable, "-m", "gunicorn", "-c", str(PROJECT_ROOT / "deploy" / "gunicorn.conf.py"),
                "services.web.app:create_app()"]
        self.web.start(argv, env=self._env(), cwd=PROJECT_ROOT)
        wait_until(lambda: self._web_answers() or not self.web.pid(), 60, "the web service", self.web.logfile)
        if not self.web.pid():
            raise StackError(f"the web service exited at start; see {self.web.logfile}")

    def down(self) -> list[str]:
        """Stop what ``up`` started, web first and stores last; returns their names."""
        stopped = []
        for name, managed in (("web", self.web), ("worker", self.worker),
                              ("elasticsearch", self.elasticsearch.process), ("redis", self.redis.process)):
            if managed.stop(timeout=60):
                stopped.append(name)
        return stopped

    def _web_answers(self) -> bool:
        try:
            return requests.get(f"{self.url}/healthz", timeout=1).ok
        except requests.RequestException:
            return False

    def _env(self) -> dict[str, str]:
        env = dict(os.environ)
        env.update({"ES_URL": self.settings.es_url, "REDIS_URL": self.settings.redis_url,
                    "PAPERLIST_INDEX": self.settings.index, "PAPERLIST_QUEUE": self.settings.queue,
                    "PAPERLIST_HOST": self.settings.host, "PAPERLIST_PORT": str(self.settings.port)})
        return env
