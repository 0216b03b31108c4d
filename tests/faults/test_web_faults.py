"""The web under faults of its backends: deadlines, circuit breakers, fail-fast 503s.

Two kinds of test:

* quick ones against a *hung endpoint* (a socket that accepts connections and never
  answers: what a SIGSTOPped server looks like from outside) — no backend is harmed;
* slow ones with real processes: a PRIVATE Elasticsearch node of the same distribution
  on a spare port (never the shared one) holding part of the sample (three venues, ~2k papers), and a
  private redis-server, paused (SIGSTOP), killed and restarted under a bounded search
  load from threads (Flask test client). Each scenario prints a row: requests made,
  failures (5xx other than 503), max latency, time to recovery.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import redis as redis_lib
from elasticsearch import Elasticsearch, helpers

from conftest import first_answer
from services.indexer.paper.normalise import Rejected, normalise, origin_from_path
from services.indexer.sources import expand, load
from services.ops.elasticsearch import ES_VERSION, LocalElasticsearch, healthy
from services.search.engine import indices
from services.search.records.documents import to_document
from services.settings import PROJECT_ROOT, load_settings
from services.web.app import create_app

SAMPLE = PROJECT_ROOT / "data" / "sample"
# What the private node holds: enough for searches that find papers, not the whole sample to normalise and index.
NODE_VENUES = [SAMPLE / "iclr", SAMPLE / "icml", SAMPLE / "nips"]
SEARCH_BUDGET = 2.0
READY_BUDGET = 1.0
RECOVERY = 5.0  # seconds after the backend is back until full service
STRICT = bool(os.environ.get("PAPERLIST_FAULTS"))  # assert the time budgets too (a quiet machine)


@pytest.fixture
def hung_port():
    """A port that accepts TCP connections (kernel backlog) and never answers."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    yield sock.getsockname()[1]
    sock.close()


def _timed(client, path, **kwargs):
    start = time.monotonic()
    resp = client.get(path, **kwargs)
    return resp, time.monotonic() - start


def test_hung_elasticsearch_answers_503_within_budget_then_fails_fast(hung_port):
    app = create_app(load_settings(ES_URL=f"http://127.0.0.1:{hung_port}", PAPERLIST_INDEX="test-hung",
                                   PAPERLIST_BREAKER_FAILURES="3"))
    client = app.test_client()
    answers = []
    for path in ("/api/v1/search?q=graph", "/search?q=graph", "/papers/x", "/api/v1/suggest?q=gra",
                 "/api/v1/search?q=x", "/readyz"):
        resp, took = _timed(client, path)
        answers.append((path, resp.status_code, took, resp.headers.get("Retry-After")))
    print("\n" + "\n".join(f"  {p}: {s} in {t:.3f}s (Retry-After {r})" for p, s, t, r in answers), file=sys.stderr)
    assert all(status == 503 for _, status, _, _ in answers)
    # The first three waited for their deadline; the breaker is open after them.
    assert all(r is not None for p, _, _, r in answers if p != "/readyz")
    if STRICT:  # timings: asserted on a quiet machine only
        assert all(took < SEARCH_BUDGET for _, _, took, _ in answers)
        assert all(took < 0.5 for _, _, took, _ in answers[3:])
    body = client.get("/api/v1/search?q=y").get_json()
    assert body["error"]["code"] == "unavailable"


def test_readiness_answers_within_its_own_budget(hung_port):
    app = create_app(load_settings(ES_URL=f"http://127.0.0.1:{hung_port}", PAPERLIST_INDEX="test-hung"))
    resp, took = _timed(app.test_client(), "/readyz")
    assert resp.status_code == 503 and took < READY_BUDGET


def test_admin_with_hung_or_dead_redis_is_a_fast_503_json(hung_port):
    for url in (f"redis://127.0.0.1:{hung_port}/0", f"redis://127.0.0.1:{_free_port()}/0"):
        app = create_app(load_settings(REDIS_URL=url, PAPERLIST_ADMIN_TOKEN="t"))
        client = app.test_client()
        for _ in range(4):
            resp, took = _timed(client, "/api/v1/admin/reindex", headers={"Authorization": "Bearer t"})
            assert resp.status_code == 503, resp.get_data()
            assert resp.get_json()["error"]["code"] == "unavailable" and resp.headers["Retry-After"]
            assert took < 1.0


# --------------------------------------------------------------------------------------
# Real processes: a private Elasticsearch node and a private Redis.


def _free_port(*, also_plus: int = 0) -> int:
    """A free port (and ``port + also_plus`` free too, for Elasticsearch's transport port)."""
    for _ in range(50):
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        if not also_plus or port + also_plus > 65535:
            return port
        with socket.socket() as other:
            try:
                other.bind(("127.0.0.1", port + also_plus))
                return port
            except OSError:
                continue
    raise RuntimeError("no free port")


def _distribution() -> Path | None:
    """The unpacked Elasticsearch of this checkout, or of the main checkout next to it."""
    name = f"elasticsearch-{ES_VERSION}"
    candidates = [load_settings().cache_dir / "elasticsearch", PROJECT_ROOT.parent.parent / "main" / ".cache" / "elasticsearch"]
    if os.environ.get("PAPERLIST_ES_CACHE"):
        candidates.insert(0, Path(os.environ["PAPERLIST_ES_CACHE"]))
    for cache in candidates:
        if (cache / name / "bin" / "elasticsearch").exists():
            return cache
    return None


class PrivateNode:
    """A private single-node Elasticsearch (its own home, run dir and ports), for breaking."""

    def __init__(self, redis_url: str):
        cache = _distribution()
        if cache is None or os.geteuid() != 0:
            pytest.skip("needs the unpacked Elasticsearch distribution and root (to run it as paperlist-es)")
        self.home = Path(tempfile.mkdtemp(prefix="paperlist-faults-"))
        self.home.chmod(0o755)  # the node's user must traverse it
        (self.home / ".cache").mkdir()
        (self.home / ".cache" / "elasticsearch").symlink_to(cache)
        port = _free_port(also_plus=100)
        self.settings = load_settings(ES_URL=f"http://127.0.0.1:{port}", REDIS_URL=redis_url,
                                      PAPERLIST_HOME=str(self.home),
                                      PAPERLIST_INDEX=f"test-faults-{uuid.uuid4().hex[:8]}")
        self.node = LocalElasticsearch(self.settings)

    @property
    def pgid(self) -> int:
        pid = self.node.process.pid()
        assert pid, "the private node is not running"
        return pid  # started in its own session: the launcher and the server JVM share the group

    def start(self) -> None:
        self.node.ensure(log=lambda line: print(line, file=sys.stderr))

    def signal(self, sig: signal.Signals) -> None:
        os.killpg(self.pgid, sig)

    def stop(self) -> None:
        try:
            self.signal(signal.SIGCONT)
        except (AssertionError, ProcessLookupError):
            pass
        self.node.stop()
        shutil.rmtree(self.home, ignore_errors=True)


@pytest.fixture(scope="module")
def private_redis():
    binary = shutil.which("redis-server")
    if not binary:
        pytest.skip("redis-server is not installed")
    port = _free_port()
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            redis_lib.Redis.from_url(url, socket_timeout=1).ping()
            break
        except redis_lib.RedisError:
            time.sleep(0.2)
    holder = {"proc": proc, "url": url, "binary": binary, "port": port}
    yield holder
    holder["proc"].kill()
    holder["proc"].wait()


def _sample_documents(index: str):
    """Part of the bundled sample (:data:`NODE_VENUES`), read and normalised by the indexer's own code."""
    seen = set()
    for location in expand([str(p) for p in NODE_VENUES]):
        for position, record in load(location).records:
            try:
                paper = normalise(record, origin_from_path(location, position))
            except Rejected:
                continue
            if paper.paper_id not in seen:
                seen.add(paper.paper_id)
                yield {"_index": index, "_id": paper.paper_id, "_source": to_document(paper)}


@pytest.fixture(scope="module")
def private_node(private_redis):
    """The private node holding part of the sample under its own alias (the real mapping)."""
    node = PrivateNode(private_redis["url"])
    try:
        node.start()
        target = Elasticsearch(node.settings.es_url, request_timeout=120)
        alias = node.settings.index
        index = indices.ensure_alias(target, alias, shards=1, replicas=0)
        helpers.bulk(target, _sample_documents(index), chunk_size=500, refresh=True)
        assert target.count(index=alias)["count"] > 2000
        yield node
    finally:
        node.stop()


@dataclass
class Load:
    """Threads sending a bounded search load; every answer is recorded."""

    client_factory: object
    paths: list[str]
    threads: int = 4
    pause: float = 0.02
    records: list[tuple[float, str, int, float]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # bodies of the 5xx answers
    _stop: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def _run(self, offset: int) -> None:
        client = self.client_factory()
        i = offset
        while not self._stop.is_set():
            path = self.paths[i % len(self.paths)]
            i += 1
            start = time.monotonic()
            resp = client.get(path)
            took = time.monotonic() - start
            with self._lock:
                self.records.append((start, path, resp.status_code, took))
                if resp.status_code >= 500:
                    self.errors.append(resp.get_data(as_text=True)[:500])
            time.sleep(self.pause)

    def __enter__(self) -> Load:
        self._threads = [threading.Thread(target=self._run, args=(i,), daemon=True) for i in range(self.threads)]
        for t in self._threads:
            t.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(timeout=30)

    def since(self, t0: float) -> list[tuple[float, str, int, float]]:
        with self._lock:
            return [r for r in self.records if r[0] >= t0]


def _first_status(client, path: str, wanted: int, *, tries: int) -> int:
    """The status of ``path`` once it is ``wanted``, or the last one after ``tries`` (0.1 s apart)."""
    status = 0
    for _ in range(tries):
        status = client.get(path).status_code
        if status == wanted:
            break
        time.sleep(0.1)
    return status


def _wait_full_service(client, t0: float, limit: float) -> float:
    """Seconds from ``t0`` until searches, pages and readiness all answer 200 again."""
    checks = ("/api/v1/search?q=learning", "/search?q=graph", "/readyz")
    while time.monotonic() - t0 < limit:
        if all(client.get(path).status_code == 200 for path in checks):
            return time.monotonic() - t0
        time.sleep(0.1)
    return float("inf")


ROWS: list[str] = []


def _row(scenario: str, records, recovery: float | None) -> dict:
    statuses = Counter(status for _, _, status, _ in records)
    failed = sum(n for status, n in statuses.items() if status >= 500 and status != 503)
    slow = [r for r in records if r[3] > (READY_BUDGET if r[1] == "/readyz" else SEARCH_BUDGET)]
    worst = max((r[3] for r in records), default=0.0)
    row = {"requests": len(records), "failed": failed, "max_latency": worst, "over_budget": len(slow),
           "statuses": dict(sorted(statuses.items())), "recovery": recovery}
    ROWS.append(f"| {scenario:<28} | {len(records):>8} | {failed:>6} | {worst:>7.3f}s | {len(slow):>11} | "
                f"{'-' if recovery is None else f'{recovery:.1f}s':>8} | {dict(sorted(statuses.items()))}")
    print("\n| scenario | requests | failed | max latency | over budget | recovery | statuses\n" + ROWS[-1],
          file=sys.stderr)
    return row


@pytest.fixture(scope="module")
def fault_app(private_node):
    app = create_app(private_node.settings)
    app.testing = False
    return app


@pytest.fixture(scope="module")
def load_paths(fault_app):
    resp = first_answer(fault_app.test_client(), "/api/v1/search?q=learning&page_size=5")
    ids = [h["id"] for h in resp.get_json()["hits"]]
    assert ids
    return ["/api/v1/search?q=learning", "/search?q=graph+neural", f"/papers/{ids[0]}",
            "/api/v1/suggest?q=gra", "/readyz", f"/api/v1/papers/{ids[1]}", "/api/v1/search?q=diffusion&page=2"]


# The scenarios always run and assert what does not depend on the machine's speed: no
# failure but 503, fail-fast 503s during the fault, full service again afterwards. The
# budgets themselves (every answer within 2 s, readiness within 1 s, recovery within 5 s)
# are timings: each row prints them, and PAPERLIST_FAULTS=1 asserts them on a quiet machine.


def _within_budgets(row: dict) -> None:
    assert row["failed"] == 0, row
    assert row["recovery"] is None or row["recovery"] != float("inf"), "full service did not return"
    if STRICT:
        assert row["over_budget"] == 0, row
        assert row["recovery"] is None or row["recovery"] <= RECOVERY, row


@pytest.mark.slow
@pytest.mark.integration
def test_paused_elasticsearch_under_load(private_node, fault_app, load_paths):
    client = fault_app.test_client()
    with Load(fault_app.test_client, load_paths) as load:
        time.sleep(3)
        t_stop = time.monotonic()
        private_node.signal(signal.SIGSTOP)
        try:
            time.sleep(20)
        finally:
            private_node.signal(signal.SIGCONT)
        t_cont = time.monotonic()
        recovery = _wait_full_service(client, t_cont, 60)
        time.sleep(1)
    row = _row("ES paused 20 s (SIGSTOP)", load.since(t_stop), recovery)
    assert row["statuses"].get(503), "requests during the pause failed fast with 503"
    _within_budgets(row)


@pytest.mark.slow
@pytest.mark.integration
def test_killed_elasticsearch_under_load_then_restarted(private_node, fault_app, load_paths):
    client = fault_app.test_client()
    with Load(fault_app.test_client, load_paths) as load:
        time.sleep(2)
        t_kill = time.monotonic()
        private_node.signal(signal.SIGKILL)
        time.sleep(5)
        during = load.since(t_kill)
        private_node.start()  # a fresh process on the same data
        t_back = time.monotonic()
        recovery = _wait_full_service(client, t_back, 60)
        time.sleep(1)
    row = _row("ES killed, restarted", load.since(t_kill), recovery)
    assert any(status == 503 for _, _, status, _ in during)
    _within_budgets(row)
    assert healthy(private_node.settings.es_url)


@pytest.mark.slow
@pytest.mark.integration
def test_killed_redis_does_not_stop_searches(private_node, private_redis, fault_app, load_paths):
    search_paths = [p for p in load_paths if p != "/readyz"]
    with Load(fault_app.test_client, search_paths) as load:
        time.sleep(2)
        t_kill = time.monotonic()
        private_redis["proc"].kill()
        private_redis["proc"].wait()
        time.sleep(8)
    # With Redis still dead and the load stopped, searches and pages answer from Elasticsearch.
    client = fault_app.test_client()
    alone = {path: _first_status(client, path, 200, tries=50) for path in search_paths}
    records = load.since(t_kill)
    row = _row("Redis killed", records, None)
    # Restart it for whatever runs next.
    private_redis["proc"] = subprocess.Popen(
        [private_redis["binary"], "--port", str(private_redis["port"]), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    assert set(alone.values()) == {200}, alone
    assert row["statuses"].get(200), row
    # Under the load every search reaches Elasticsearch (no cache): on a loaded machine some
    # may run out of the search budget and get the search's own 503. None may be Redis's.
    assert not [body for body in load.errors if "Redis" in body], load.errors[:3]
    if STRICT:
        assert set(row["statuses"]) == {200}, row
    _within_budgets(row)
