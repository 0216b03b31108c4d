"""Fixtures: a real Elasticsearch, Redis and Celery worker, started when missing, reused when running.

Tests never touch real data: every alias is ``test-<random>`` (deleted afterwards), the
broker is Redis database 15 and the worker consumes a queue of its own.
"""

from __future__ import annotations

import os
import pickle
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path

import pytest
import redis as redis_lib
from filelock import FileLock
from flask.testing import FlaskClient
from hypothesis import settings as hypothesis_settings

from services.settings import PROJECT_ROOT, Settings, load_settings

SAMPLE = PROJECT_ROOT / "data" / "sample"

# CI runs property tests derandomized (the same examples every run, so a red build is
# reproducible); HYPOTHESIS_PROFILE=explore searches fresh examples each run.
hypothesis_settings.register_profile("ci", derandomize=True, deadline=None)
hypothesis_settings.register_profile("explore", deadline=None)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
TEST_DB = 15


@pytest.fixture(autouse=True, scope="session")
def _test_clients_close_their_answers():
    """Flask's test client closes each answer before handing it over, as a WSGI server closes it once
    sent: the writes deferred to then (services.web.requestctx.after_sending) have run when a test
    looks. Unbuffered, a test client never closes an answer and those writes would never run."""
    real_open = FlaskClient.open

    def open_closed(self, *args, buffered: bool = True, **kwargs):
        return real_open(self, *args, buffered=buffered, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(FlaskClient, "open", open_closed)
        yield


def _test_settings(**overrides) -> Settings:
    base = load_settings()
    redis_url = base.redis_url.rsplit("/", 1)[0] + f"/{TEST_DB}"
    values = {"ES_URL": base.es_url, "REDIS_URL": redis_url, "PAPERLIST_INDEX": f"test-{uuid.uuid4().hex[:8]}",
              "PAPERLIST_QUEUE": f"paperlist-test-{uuid.uuid4().hex[:6]}", "PAPERLIST_BATCH_SIZE": "500",
              # A killed rebuild's lock lapses in 20 s, not the default 60 (tests/integration/test_reindex.py waits it out).
              "PAPERLIST_REINDEX_LOCK_TTL": "20"}
    values.update(overrides)
    return load_settings(**values)


@pytest.fixture(scope="session")
def settings() -> Settings:
    return _test_settings()


@pytest.fixture(scope="session")
def stores(settings):
    """Elasticsearch and Redis: reused when they answer, else started and stopped at the end."""
    from services.ops import LocalStack

    stack = LocalStack(settings, log=lambda line: print(line, file=sys.stderr))
    started_redis = stack.redis.ensure(stack.log)
    started_es = stack.elasticsearch.ensure(stack.log)
    yield stack
    if started_es:
        stack.elasticsearch.stop()
    if started_redis:
        stack.redis.stop()


@pytest.fixture(scope="session")
def es(stores, settings):
    from services.search.engine.client import make_client

    return make_client(settings, request_timeout=60)


@pytest.fixture(scope="session")
def redis_client(stores, settings):
    client = redis_lib.Redis.from_url(settings.redis_url)
    return client


@pytest.fixture(scope="session")
def celery_app(settings, stores):
    from services.indexer.celery_app import create_celery

    return create_celery(settings)


class Worker:
    """A real Celery worker process on the test queue; tests may kill and restart it."""

    def __init__(self, settings: Settings, celery_app):
        self.settings = settings
        self.celery = celery_app
        self.proc: subprocess.Popen | None = None
        self.log = PROJECT_ROOT / "run" / f"test-worker-{settings.queue}.log"

    def start(self, concurrency: int = 2) -> None:
        env = {**os.environ, "ES_URL": self.settings.es_url, "REDIS_URL": self.settings.redis_url,
               "PAPERLIST_QUEUE": self.settings.queue, "PAPERLIST_INDEX": self.settings.index,
               "PAPERLIST_MAP_MIN_PAPERS": str(self.settings.map_min_papers),
               "PAPERLIST_REINDEX_LOCK_TTL": str(self.settings.reindex_lock_ttl)}
        self.log.parent.mkdir(exist_ok=True)
        node = f"test-{uuid.uuid4().hex[:6]}@%h"
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "services.indexer.worker", "worker", "-Q", self.settings.queue,
             "--concurrency", str(concurrency), "--loglevel", "INFO", "-n", node, "--without-gossip",
             "--without-mingle", "--without-heartbeat"],
            env=env, cwd=PROJECT_ROOT, stdout=open(self.log, "ab"), stderr=subprocess.STDOUT,
            start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            replies = self.celery.control.inspect(timeout=1).active_queues() or {}
            if any(q["name"] == self.settings.queue for qs in replies.values() for q in qs):
                return
            assert self.proc.poll() is None, f"worker exited; see {self.log}"
        raise AssertionError(f"worker did not come up; see {self.log}")

    def kill(self) -> None:
        """SIGKILL the whole worker (main process and pool children), as a crash would."""
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture(scope="session")
def worker(settings, celery_app, redis_client, es):
    w = Worker(settings, celery_app)
    w.start()
    yield w
    w.stop()


def drop_alias(es, alias: str) -> None:
    """Delete the alias's indices by name (the node refuses wildcard deletes)."""
    names = [row["index"] for row in es.cat.indices(index=f"{alias}-*", format="json", h="index")]
    if names:
        es.indices.delete(index=",".join(names), ignore_unavailable=True)


@pytest.fixture
def alias(es, request):
    """A fresh alias for one test, removed with its indices afterwards."""
    name = f"test-{uuid.uuid4().hex[:10]}"
    yield name
    drop_alias(es, name)


def first_answer(client, url: str, seconds: float = 120):
    """GET ``url`` until it answers 200 (a cold node may miss the web's time budget), bounded in time."""
    deadline = time.monotonic() + seconds
    resp = client.get(url)
    while resp.status_code != 200 and time.monotonic() < deadline:
        time.sleep(1)
        resp = client.get(url)
    return resp


def run_ingest(settings, celery_app, es, redis_client, sources, alias: str, **kwargs):
    from services.indexer.ingest.dispatch import Ingest

    kwargs.setdefault("wait_passes", True)  # the tests read what the corpus passes wrote
    job = Ingest(settings, celery_app, es, redis_client, alias=alias, **kwargs)
    return job.execute([str(s) for s in sources])  # ends with everything searchable


def free_port() -> int:
    """An ephemeral loopback port the kernel says is free: never 8000, where a developer's `paperlist up` runs."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def running_front(settings: Settings, index: str, **overrides: str):
    """The web stack as `paperlist up` starts it (gunicorn on a socket, nginx in front, its edge cache
    included) over ``index``, on a spare loopback port; stopped, and checked stopped, afterwards."""
    from services.ops import LocalStack

    home = Path(tempfile.mkdtemp(prefix="paperlist-front-"))
    home.chmod(0o755)  # nginx's workers (www-data when run as root) must reach the socket
    web_settings = _test_settings(**{"PAPERLIST_INDEX": index, "PAPERLIST_QUEUE": settings.queue,
                                     "REDIS_URL": settings.redis_url, "PAPERLIST_HOME": str(home),
                                     "PAPERLIST_PORT": str(free_port()), "PAPERLIST_WEB_WORKERS": "1",
                                     "PAPERLIST_WEB_THREADS": "4", **overrides})
    stack = LocalStack(web_settings, log=lambda line: None)
    try:
        stack.ensure_web()
        yield stack
    finally:
        stopped = stack.down()
        shutil.rmtree(home, ignore_errors=True)
    assert stopped[0] == "nginx" and not stack.nginx.answers(), "down must stop the front"


@pytest.fixture
def ingest(settings, celery_app, es, redis_client, worker, tmp_path):
    def _ingest(sources, alias, **kwargs):
        kwargs.setdefault("rejects_dir", tmp_path / "rejects")
        return run_ingest(settings, celery_app, es, redis_client, sources, alias, **kwargs)
    return _ingest


SHARED_SAMPLE = "PAPERLIST_TEST_SHARED_SAMPLE"  # the folder where xdist's processes share one sample ingest


@pytest.fixture(scope="session")
def sample_ingest(settings, celery_app, es, redis_client, worker, tmp_path_factory):
    """``(alias, summary)``: the bundled sample corpus, ingested once through a worker for read-only tests.

    Under xdist the processes share one ingest (the sample with both corpus passes was the largest
    single cost of the services tier, paid once per process): the first to take the lock in the
    folder the controller made (:func:`pytest_configure`) ingests and leaves the alias and summary
    there; the others read them. The controller drops the alias when the whole run ends.
    """
    shared = os.environ.get(SHARED_SAMPLE)
    if not shared:
        name, summary = _ingest_sample(settings, celery_app, es, redis_client, tmp_path_factory.mktemp("rejects"))
        yield name, summary
        drop_alias(es, name)
        return
    folder = Path(shared)
    with FileLock(folder / "sample.lock"):  # held while one process ingests, not while the tests read
        if not (folder / "sample.pickle").exists():
            made = _ingest_sample(settings, celery_app, es, redis_client, folder / "rejects")
            (folder / "sample.pickle").write_bytes(pickle.dumps(made))
    yield pickle.loads((folder / "sample.pickle").read_bytes())


def _ingest_sample(settings, celery_app, es, redis_client, rejects_dir: Path):
    name = f"test-sample-{uuid.uuid4().hex[:8]}"
    summary = run_ingest(settings, celery_app, es, redis_client, [SAMPLE], name, rejects_dir=rejects_dir)
    assert summary.indexed > 4000, summary
    return name, summary


@pytest.fixture(scope="session")
def sample_alias(sample_ingest) -> str:
    return sample_ingest[0]


@pytest.fixture(scope="session")
def web_settings(settings, sample_alias):
    # Rate limits off for the shared app (tests/integration/test_web_security.py checks them).
    # Time budgets roomy for a busy CI machine: these tests check answers, not deadlines
    # (tests/faults/test_web_faults.py checks those with the defaults).
    return _test_settings(PAPERLIST_INDEX=sample_alias, PAPERLIST_QUEUE=settings.queue,
                          REDIS_URL=settings.redis_url, PAPERLIST_ADMIN_TOKEN="test-token",
                          PAPERLIST_RATE_LIMIT_ENABLED="false", PAPERLIST_SEARCH_BUDGET="10",
                          PAPERLIST_FACETS_BUDGET="5",  # a loaded CI box once left a page's facets out
                          PAPERLIST_READY_BUDGET="5")


@pytest.fixture(scope="session")
def app(web_settings):
    from services.web.app import create_app

    application = create_app(web_settings)
    application.testing = False  # errors go through the real handlers
    return application


@pytest.fixture
def client(app):
    return app.test_client()


SERVING_THREADS = 16


@contextmanager
def serving(app):
    """``app`` on a real loopback port while the block runs; yields its base URL.

    Requests are handled by a pool of threads started with the server, not a thread per request
    (werkzeug's threaded server): under coverage, a thread starting while another installs its trace
    function can die before it runs (CPython gh-98257, "Cannot install a trace function while another
    trace function is being installed"), and its request is never answered (a browser test timed out
    on it in CI, 2026-12-07). One request per connection (HTTP/1.0), so no idle keep-alive holds a thread."""
    from concurrent.futures import ThreadPoolExecutor

    from werkzeug.serving import BaseWSGIServer

    class PooledServer(BaseWSGIServer):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.pool = ThreadPoolExecutor(SERVING_THREADS, thread_name_prefix="live-server")
            list(self.pool.map(time.sleep, [0.05] * SERVING_THREADS))  # every thread started now, before any request

        def process_request(self, request, client_address):
            self.pool.submit(self._handle, request, client_address)

        def _handle(self, request, client_address):
            try:
                self.finish_request(request, client_address)
            except Exception:
                self.handle_error(request, client_address)
            finally:
                self.shutdown_request(request)

    server = PooledServer("127.0.0.1", 0, app)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.pool.shutdown(wait=False, cancel_futures=True)


@pytest.fixture(scope="session")
def live_server(app):
    """The Flask app on a real port, for the browser test and Schemathesis."""
    with serving(app) as url:
        yield url


@pytest.fixture
def fake_reads():
    """The search layer in memory (tests/fake_reads.py): web tests without Elasticsearch or Redis."""
    from fake_reads import FakeReads

    return FakeReads()


@pytest.fixture
def fake_client(fake_reads):
    """A client of the real app over :func:`fake_reads`."""
    from fake_reads import fake_app

    return fake_app(fake_reads).test_client()


def source_records(paths: list[Path]) -> dict[tuple[str, int], list[dict]]:
    """Each venue-year's records as the source files hold them, once per paper id, ingestible ones only."""
    from services.indexer.paper.normalise import Rejected, identity, normalise
    from services.indexer.sources import open_sources

    out: dict[tuple[str, int], list[dict]] = defaultdict(list)
    seen: set[str] = set()
    for source_file in open_sources([str(p) for p in paths]):
        for raw in source_file.read().records:
            try:
                paper_id, conference, year = identity(raw.data, raw.origin)
                if paper_id in seen:
                    continue
                normalise(raw.data, raw.origin)  # only a filter: records the ingest rejects are not indexed
            except Rejected:
                continue
            seen.add(paper_id)
            out[(conference, year)].append(raw.data)
    return out


def corpus_dir() -> Path | None:
    """The full shared corpus, when this checkout sits next to it."""
    path = load_settings().corpus_dir
    return path if path.is_dir() else None


# The services tier runs in two processes (deploy/test: pytest-xdist's ``-n 2 --dist loadfile``), each
# with a session of its own: its own Celery worker on its own queue and web app; the sample ingest is
# one for both (the first to need it makes it, :func:`sample_ingest`). A test file runs whole in one
# process (its module fixtures are set up once). The files with slow tests are handed out first, so
# that no process is left alone with a long one at the end.

_STARTED = pytest.StashKey[list]()
_SHARED = pytest.StashKey[str]()


def _reaches_services(config) -> bool:
    """Whether the run collects tests beyond tests/unit (the unit tier needs no store)."""
    unit = (PROJECT_ROOT / "tests" / "unit").resolve()
    paths = [(config.invocation_params.dir / arg.split("::")[0]).resolve() for arg in config.args]
    return any(not path.is_relative_to(unit) for path in paths)


def pytest_configure(config):
    """Under xdist, the controller starts Elasticsearch and Redis once, before any worker runs.

    Each worker's ``stores`` fixture would otherwise start what is missing by itself: on a fresh
    machine two workers unpacked the Elasticsearch distribution into one folder at once (and
    failed), and the worker that started the node stopped it when its own share was done,
    under the other's tests. The workers now find both running and reuse them; the controller
    stops what it started when the whole run ends. It also makes the folder in which the workers
    share one sample ingest (:func:`sample_ingest`) and drops that alias at the end.

    In every process: a write shows on the very next request (the result cache's refresh window off,
    ``PAPERLIST_CACHE_REFRESH_WINDOW=0``), which many tests assert; the window's own tests turn it on.
    """
    os.environ.setdefault("PAPERLIST_CACHE_REFRESH_WINDOW", "0")
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return
    if not _reaches_services(config):
        return
    from services.ops import LocalStack

    stack = LocalStack(_test_settings(), log=lambda line: print(line, file=sys.stderr))
    config.stash[_STARTED] = [store for store in (stack.redis, stack.elasticsearch) if store.ensure(stack.log)]
    os.environ[SHARED_SAMPLE] = config.stash[_SHARED] = tempfile.mkdtemp(prefix="paperlist-sample-")  # workers inherit it


def pytest_unconfigure(config):
    shared = config.stash.get(_SHARED, None)
    if shared:
        made = Path(shared) / "sample.pickle"
        if made.exists():
            from services.search.engine.client import make_client

            drop_alias(make_client(_test_settings()), pickle.loads(made.read_bytes())[0])
        shutil.rmtree(shared, ignore_errors=True)
        os.environ.pop(SHARED_SAMPLE, None)
    for store in reversed(config.stash.get(_STARTED, [])):
        store.stop()


def pytest_collection_modifyitems(config, items):
    """Under xdist, the files with slow tests first (their order otherwise kept)."""
    if not hasattr(config, "workerinput"):
        return
    slow = {item.nodeid.split("::")[0] for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.nodeid.split("::")[0] not in slow)


_FAULT_LINES: list[str] = []  # the fault table, gathered from test reports (from the xdist workers too)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A fault scenario's table lines ride on its test's report (xdist sends reports to the controller)."""
    report = yield
    helpers = sys.modules.get("faults.helpers")
    if helpers is not None and call.when == "call":
        report.user_properties.extend(("fault_row", line) for line in helpers.take_lines())
    return report


def pytest_runtest_logreport(report):
    _FAULT_LINES.extend(value for key, value in report.user_properties if key == "fault_row")


def pytest_terminal_summary(terminalreporter):
    """The fault suite's table (tests/faults, tests/cluster), when any of them ran."""
    if _FAULT_LINES:
        from faults.helpers import TABLE_HEAD

        terminalreporter.section("fault table")
        for line in [TABLE_HEAD, *_FAULT_LINES]:
            terminalreporter.write_line(line)
