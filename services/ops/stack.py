"""The local stack behind ``paperlist up`` / ``down``: Elasticsearch, Redis, a worker, the web, the MCP server, nginx.

Each piece is reused when it already answers and started (with a pid file in the run
folder) when it does not; ``down`` stops exactly the processes that have pid files.
"""

from __future__ import annotations

import http.client
import os
import socket
import sys
from collections.abc import Callable
from pathlib import Path

import requests
from celery import Celery

from services.settings import PROJECT_ROOT, Settings

from .elasticsearch import LocalElasticsearch
from .nginx import LocalNginx
from .processes import Managed, StackError, wait_until
from .redis import LocalRedis

__all__ = ["LocalStack", "StackError"]

GUNICORN_CONF = PROJECT_ROOT / "deploy" / "gunicorn.conf.py"
MCP_APP = "services.mcp_server.server:http_app"  # the MCP server's streamable HTTP app, an ASGI factory
MCP_PATH = "/mcp"
MCP_PING = b'{"jsonrpc": "2.0", "id": 0, "method": "ping"}'
Log = Callable[[str], None]


class LocalStack:
    def __init__(self, settings: Settings, log: Log = print):
        self.settings = settings
        self.log = log
        self.elasticsearch = LocalElasticsearch(settings)
        self.redis = LocalRedis(settings)
        self.worker = Managed("worker", settings.run_dir)
        self.scheduler = Managed("scheduler", settings.run_dir)
        self.web = Managed("web", settings.run_dir)
        self.mcp = Managed("mcp", settings.run_dir)
        self.nginx = LocalNginx(settings)

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

    def ensure_scheduler(self) -> None:
        """Celery beat with celery-redbeat, the followed sources' tick: one runs however many are started (a
        Redis lock), so starting ours beside another host's is harmless."""
        if self.scheduler.pid():
            return
        self.log("Scheduler: starting (followed sources)")
        argv = [sys.executable, "-m", "celery", "-A", "services.indexer.worker", "beat",
                "-S", "redbeat.RedBeatScheduler", "--loglevel", "INFO"]
        self.scheduler.start(argv, env=self._env(), cwd=PROJECT_ROOT)

    def ensure_web(self) -> None:
        """gunicorn on a unix socket in the run folder, nginx in front of it on our address."""
        if not self.nginx.process.pid() and not self.web.pid() and self._web_answers():
            return  # a web service that we did not start already answers here: reuse it
        if not self.web.pid():
            self.log(f"Web: starting gunicorn on {self.nginx.upstream}")
            self.nginx.socket.unlink(missing_ok=True)
            argv = [sys.executable, "-m", "gunicorn", "-c", str(GUNICORN_CONF), "services.web.app:create_app()"]
            self.web.start(argv, env=self._env(), cwd=PROJECT_ROOT)
            wait_until(lambda: _socket_answers(self.nginx.socket) or not self.web.pid(), 60,
                       "the web service", self.web.logfile)
            if not self.web.pid():
                raise StackError(f"the web service exited at start; see {self.web.logfile}")
        self.ensure_mcp()
        self.nginx.ensure(self.log)
        wait_until(self._web_answers, 30, f"the web service behind nginx at {self.url}", self.nginx.process.logfile)

    def ensure_mcp(self) -> None:
        """The MCP server's streamable HTTP app: uvicorn on a unix socket in the run folder, behind nginx's /mcp."""
        if self.mcp.pid():
            return
        socket_path = self.nginx.mcp_socket
        self.log(f"MCP server: starting uvicorn on {self.nginx.mcp_upstream}")
        socket_path.unlink(missing_ok=True)
        argv = [sys.executable, "-m", "uvicorn", "--factory", MCP_APP, "--uds", str(socket_path),
                "--workers", str(self.settings.mcp_workers), "--no-access-log", "--log-level", "warning",
                "--timeout-graceful-shutdown", "10"]
        self.mcp.start(argv, env=self._env(), cwd=PROJECT_ROOT)
        wait_until(lambda: _socket_answers(socket_path, MCP_PATH, MCP_PING) or not self.mcp.pid(), 60,
                   "the MCP server", self.mcp.logfile)
        if not self.mcp.pid():
            raise StackError(f"the MCP server exited at start; see {self.mcp.logfile}")

    def down(self) -> list[str]:
        """Stop what ``up`` started, front first and stores last; returns their names."""
        stopped = []
        for name, managed in (("nginx", self.nginx.process), ("web", self.web), ("mcp", self.mcp),
                              ("scheduler", self.scheduler),
                              ("worker", self.worker),
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
                    "PAPERLIST_HOST": self.settings.host, "PAPERLIST_PORT": str(self.settings.port),
                    "PAPERLIST_WEB_BIND": self.nginx.upstream,
                    "PAPERLIST_WEB_WORKERS": str(self.settings.web_workers),
                    "PAPERLIST_WEB_THREADS": str(self.settings.web_threads),
                    # What nginx was rendered with and the app must agree on: the edge's TTL and
                    # who is exempt from rate limits (the app's limits themselves, too).
                    "PAPERLIST_EDGE_TTL": str(self.settings.edge_ttl),
                    "PAPERLIST_RATE_LIMIT_EXEMPT": self.settings.rate_limit_exempt,
                    "PAPERLIST_RATE_LIMIT": self.settings.rate_limit})
        if self.settings.admin_token:
            env["PAPERLIST_ADMIN_TOKEN"] = self.settings.admin_token
        return env


class _UnixConnection(http.client.HTTPConnection):
    def __init__(self, path: Path):
        super().__init__("localhost", timeout=1)
        self.path = str(path)

    def connect(self) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self.path)


def _socket_answers(path: Path, target: str = "/healthz", ping: bytes | None = None) -> bool:
    """An app straight over its unix socket, before nginx is in front: gunicorn's GET /healthz, or (``ping``) the
    MCP server's /mcp answering a JSON-RPC ping POSTed to it (stateless: no session to open first)."""
    conn = _UnixConnection(path)
    try:
        if ping is None:
            conn.request("GET", target)
        else:
            conn.request("POST", target, body=ping, headers={"Content-Type": "application/json",
                                                             "Accept": "application/json"})
        return conn.getresponse().status == 200
    except OSError:
        return False
    finally:
        conn.close()
