"""The Redis result cache against the real Redis and Elasticsearch: freshness, faults, single flight, /metrics."""

from __future__ import annotations

import gzip
import json
import re
import threading
import uuid

import pytest

from services import redis_keys
from services.indexer.rebuild.control import rollback
from services.indexer.rebuild.runner import Rebuild
from services.search.engine.generation import bump_generation, current_generation, settling_key
from services.search.service import PaperSearch
from services.settings import load_settings
from services.web import extensions
from services.web.app import create_app
from services.web.cache import store as cache_store
from services.web.cache.results import CachedSearch

pytestmark = pytest.mark.integration

CLOSED = "127.0.0.1:1"  # nothing listens on port 1


def _app(settings, alias: str, **overrides):
    values = {"ES_URL": settings.es_url, "REDIS_URL": settings.redis_url, "PAPERLIST_INDEX": alias,
              "PAPERLIST_QUEUE": settings.queue}
    values.update(overrides)
    app = create_app(load_settings(**values))
    app.testing = False
    return app


def _search(client, q: str, **headers):
    resp = client.get("/api/v1/search", query_string={"q": q}, headers=headers)
    return resp, resp.get_json()


def _papers(path, tag: str, n: int, start: int = 0):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps([{"id": f"{tag}-{i}", "title": f"Quokka {tag} paper number {i}",
                                 "author": "Ada Lovelace", "status": "Poster", "track": "main",
                                 "abstract": "Freshness of cached answers."} for i in range(start, start + n)]))
    return path


def test_cached_query_sees_an_ingest_and_a_reindex_on_its_next_request(settings, ingest, es, redis_client,
                                                                       alias, tmp_path):
    source = _papers(tmp_path / "fresh" / "fresh2031.json", "a", 3)
    ingest([source], alias)
    client = _app(settings, alias).test_client()
    first, data = _search(client, "quokka")
    assert (first.headers["X-Cache"], data["total"]) == ("miss", 3)
    again, data = _search(client, "quokka")
    assert (again.headers["X-Cache"], data["total"]) == ("hit", 3)

    # An ingest that writes bumps the generation: the very next request asks Elasticsearch.
    ingest([_papers(tmp_path / "more" / "fresh2032.json", "b", 2)], alias)
    after_ingest, data = _search(client, "quokka")
    assert (after_ingest.headers["X-Cache"], data["total"]) == ("miss", 5)

    # A rebuild from the (changed) sources swaps the alias to an index with more papers.
    _papers(source, "a", 6)
    generation = current_generation(redis_client, alias)
    Rebuild(settings, es, redis_client, alias, uuid.uuid4().hex[:12]).run(from_sources=True)
    assert current_generation(redis_client, alias) > generation
    after_swap, data = _search(client, "quokka")
    assert (after_swap.headers["X-Cache"], data["total"]) == ("miss", 8)
    assert _search(client, "quokka")[1]["total"] == 8

    # A rollback swaps back: the old index's five papers again, at once.
    rollback(settings, es, redis_client, alias)
    rolled, data = _search(client, "quokka")
    assert (rolled.headers["X-Cache"], data["total"]) == ("miss", 5)


def test_right_after_an_ingest_the_previous_answer_is_served_while_the_new_one_is_made(settings, ingest, redis_client,
                                                                                     alias, tmp_path):
    """Issue 52's cold cliff: within the refresh window a miss after a write is answered at once with the
    answer of the generation before, marked stale, and the request computes the new one after sending it;
    the next request has it. The tier runs with the window off (conftest): this test turns it on."""
    ingest([_papers(tmp_path / "fresh" / "fresh2033.json", "c", 3)], alias)
    client = _app(settings, alias, PAPERLIST_CACHE_REFRESH_WINDOW="120").test_client()  # a slow ingest is no miss
    assert _search(client, "quokka")[1]["total"] == 3
    ingest([_papers(tmp_path / "more" / "fresh2034.json", "d", 2)], alias)
    redis_client.delete(settling_key(alias))  # the refresh computed below is then kept the full TTL
    served, data = _search(client, "quokka")
    assert (served.status_code, served.headers["X-Cache"], data["total"]) == (200, "stale", 3)
    assert served.headers["Warning"] == '110 - "Response is stale"'
    refreshed, data = _search(client, "quokka")  # the first one's refresh ran once its answer was closed
    assert (refreshed.headers["X-Cache"], data["total"]) == ("hit", 5)
    # Outside the window a miss asks Elasticsearch at once, as without it.
    bump_generation(redis_client, alias)
    redis_client.delete(redis_keys.bumped(alias), settling_key(alias))
    assert _search(client, "quokka")[0].headers["X-Cache"] == "miss"


def test_redis_down_serves_uncached(settings, sample_alias):
    app = _app(settings, sample_alias, REDIS_URL=f"redis://{CLOSED}/15")
    client = app.test_client()
    for _ in range(2):
        resp, data = _search(client, "learning")
        assert resp.status_code == 200 and data["total"] > 0
        assert resp.headers["X-Cache"] == "bypass"
    assert extensions.reads(app).store.failures >= 1
    assert client.get("/search", query_string={"q": "robot"}).status_code == 200


def test_elasticsearch_down_serves_stale_copy_else_503(settings, sample_alias, redis_client):
    healthy = _app(settings, sample_alias).test_client()
    q = f"learning {uuid.uuid4().hex[:6]}"  # unknown word: a query of its own
    fresh, answer = _search(healthy, "graph neural")
    page = healthy.get("/search", query_string={"q": "graph neural"})
    assert fresh.status_code == 200 and page.status_code == 200
    bump_generation(redis_client, sample_alias)  # the data changed, then Elasticsearch went away
    redis_client.delete(settling_key(sample_alias))  # long ago: later tests' answers are kept the full TTL

    broken = _app(settings, sample_alias, ES_URL=f"http://{CLOSED}").test_client()
    stale, data = _search(broken, "graph neural")
    assert stale.status_code == 200 and stale.headers["X-Cache"] == "stale"
    assert stale.headers["Warning"] == '110 - "Response is stale"'
    assert data == answer
    stale_page = broken.get("/search", query_string={"q": "graph neural"})
    assert stale_page.status_code == 200 and stale_page.headers["X-Cache"] == "stale"
    assert _shown_total(stale_page) == _shown_total(page) == answer["total"]
    uncached, data = _search(broken, q)
    assert uncached.status_code == 503 and data["error"]["code"] == "unavailable"


def _shown_total(page) -> int:
    return int(re.search(r"<strong>([\d,]+)</strong> papers", page.get_data(as_text=True)).group(1).replace(",", ""))


class CountingSearch(PaperSearch):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.calls = 0
        self.lock = threading.Lock()
        self.release = threading.Event()

    def search(self, req):
        with self.lock:
            self.calls += 1
        self.release.wait(5)  # hold the first answer back until every request has asked
        return super().search(req)


def test_a_burst_of_identical_misses_makes_one_elasticsearch_request(settings, sample_alias, monkeypatch):
    monkeypatch.setattr(cache_store, "WAIT_SECONDS", 60)  # however slow this machine, nobody gives up
    # ... and no request's budget (an identical miss waits for its leader only while its budget lasts)
    app = _app(settings, sample_alias, PAPERLIST_SEARCH_BUDGET="60")
    cached = extensions.reads(app)
    counting = CountingSearch(cached.service.es, sample_alias)
    extensions.replace_reads(app, CachedSearch(counting, cached.store))
    q = f"reinforcement learning {uuid.uuid4().hex[:6]}"
    n = 20
    barrier = threading.Barrier(n + 1)
    answers: list = []

    def ask():
        client = app.test_client()
        barrier.wait()
        resp = client.get("/api/v1/search", query_string={"q": q})
        answers.append((resp.status_code, resp.headers.get("X-Cache"), resp.get_data()))

    threads = [threading.Thread(target=ask) for _ in range(n)]
    for t in threads:
        t.start()
    barrier.wait()
    # Let the leader go once the others are waiting on its lock (or have finished: either way one call).
    for _ in range(1000):
        if counting.calls:
            break
        threading.Event().wait(0.01)
    threading.Event().wait(0.3)
    counting.release.set()
    for t in threads:
        t.join(30)
    assert counting.calls == 1
    assert len(answers) == n and all(status == 200 for status, _, _ in answers)
    assert sorted(state for _, state, _ in answers) == ["hit"] * (n - 1) + ["miss"]
    assert len({body for _, _, body in answers}) == 1


def test_a_read_that_misses_takes_the_single_flight_lock_in_the_same_round_trip(settings, redis_client):
    from services.web.redis_guard import from_settings

    store = cache_store.ResultStore(from_settings(settings), f"test-{uuid.uuid4().hex[:8]}", ttl=60, stale_ttl=0)
    key = store.fresh_key(1, uuid.uuid4().hex)
    assert store.get_or_lead(key) == (True, None)  # the first miss leads
    assert redis_client.pttl(redis_keys.cache_lock(key)) > 0  # and its lock lapses by itself
    assert store.get_or_lead(key) == (False, None)  # the next finds it held: it waits for the answer
    store.store(key, store.stale_key("x"), b"answer", 0, 1)
    assert store.get_or_lead(key) == (False, b"answer")
    assert not redis_client.exists(redis_keys.cache_lock(key))  # the leader's write let it go; a hit takes none


def test_no_cache_request_header_skips_reading_but_stores(client):
    q = f"robot {uuid.uuid4().hex[:6]}"
    resp, _ = _search(client, q, **{"Cache-Control": "no-cache"})
    assert resp.headers["X-Cache"] == "bypass"
    resp, _ = _search(client, q)
    assert resp.headers["X-Cache"] == "hit"


def test_a_miss_is_written_to_the_cache_once_its_answer_is_sent(client, redis_client, sample_alias):
    """The client does not wait for the cache writes: they run when the server closes the answer
    (a test client closes it before handing it over unless told not to buffer it)."""
    q = f"graph {uuid.uuid4().hex[:6]}"
    stale = f"{redis_keys.cache_stale(sample_alias, '*')}"
    before = set(redis_client.scan_iter(match=stale, count=1000))
    sent = client.get("/api/v1/search", query_string={"q": q}, buffered=False)
    assert sent.headers["X-Cache"] == "miss" and sent.get_json()["query"]["q"] == q
    assert set(redis_client.scan_iter(match=stale, count=1000)) == before  # answered, nothing written yet
    sent.close()
    assert len(set(redis_client.scan_iter(match=stale, count=1000)) - before) == 1
    again, _ = _search(client, q)
    assert again.headers["X-Cache"] == "hit"


def test_a_kept_answer_is_read_with_the_generation(client, monkeypatch, redis_client, sample_alias):
    """A repeated request costs one round trip: the generation and the kept answer in one pipeline; after
    the generation moves (an ingest) the guess misses, the entry is read apart, and the answer is right."""
    q = f"graph {uuid.uuid4().hex[:6]}"
    first, data = _search(client, q)
    reads = []
    real_get = cache_store.ResultStore.get
    monkeypatch.setattr(cache_store.ResultStore, "get", lambda self, key: reads.append(key) or real_get(self, key))
    again, same = _search(client, q)
    assert (first.headers["X-Cache"], again.headers["X-Cache"], same) == ("miss", "hit", data) and reads == []
    bump_generation(redis_client, sample_alias)
    redis_client.delete(settling_key(sample_alias))
    moved, fresh = _search(client, q)
    assert moved.headers["X-Cache"] == "miss" and fresh["total"] == data["total"] and reads  # read apart


def test_kept_answers_go_out_gzipped_to_clients_that_accept_it(client):
    q = f"graph {uuid.uuid4().hex[:6]}"
    first, data = _search(client, q)
    assert first.headers["X-Cache"] == "miss" and "Content-Encoding" not in first.headers
    packed = client.get("/api/v1/search", query_string={"q": q}, headers={"Accept-Encoding": "gzip, br"})
    assert packed.headers["X-Cache"] == "hit" and packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert json.loads(gzip.decompress(packed.get_data())) == data
    plain = client.get("/api/v1/search", query_string={"q": q}, headers={"Accept-Encoding": "gzip;q=0"})
    assert plain.headers["X-Cache"] == "hit" and "Content-Encoding" not in plain.headers
    assert plain.get_json() == data


def test_a_miss_goes_out_gzipped_too_with_the_tag_of_the_hits_after_it(client):
    gz = {"Accept-Encoding": "gzip"}
    q = {"q": f"robot {uuid.uuid4().hex[:6]}"}
    miss = client.get("/api/v1/search", query_string=q, headers=gz)
    hit = client.get("/api/v1/search", query_string=q, headers=gz)
    assert (miss.headers["X-Cache"], hit.headers["X-Cache"]) == ("miss", "hit")
    assert miss.headers["Content-Encoding"] == hit.headers["Content-Encoding"] == "gzip"
    assert miss.get_data() == hit.get_data() and miss.headers["ETag"] == hit.headers["ETag"]
    again = client.get("/api/v1/search", query_string=q, headers={**gz, "If-None-Match": miss.headers["ETag"]})
    assert again.status_code == 304


def test_stats_and_venues_are_kept_whole_but_a_csv_never_is(client):
    """The whole-answer cache once listed "api.stats" and "api.venue", endpoints that never existed."""
    gz = {"Accept-Encoding": "gzip"}
    q = {"q": f"graph {uuid.uuid4().hex[:6]}"}
    for path, query in (("/api/v1/stats", q), ("/api/v1/venues/iclr/2018", {"x": uuid.uuid4().hex[:6]})):
        miss = client.get(path, query_string=query, headers=gz)
        hit = client.get(path, query_string=query, headers=gz)
        assert miss.status_code == hit.status_code == 200, path
        # Only the whole-answer cache gzips, on the request that keeps the answer and on its hits.
        assert miss.headers.get("Content-Encoding") == hit.headers.get("Content-Encoding") == "gzip", path
        assert hit.headers["X-Cache"] == "hit" and miss.headers["ETag"] == hit.headers["ETag"], path
        assert json.loads(gzip.decompress(hit.get_data())) == json.loads(gzip.decompress(miss.get_data()))
    for _ in range(2):
        csv = client.get("/api/v1/stats", query_string={**q, "format": "csv"}, headers=gz)
        assert csv.mimetype == "text/csv" and "Content-Encoding" not in csv.headers
        assert csv.get_data(as_text=True).startswith("breakdown,value,year,count")


def _counter(text: str, name: str) -> float:
    match = re.search(rf"^{name} ([0-9.e+]+)$", text, re.M)
    assert match, f"{name} missing from /metrics"
    return float(match.group(1))


def test_metrics_count_cache_hits_and_refuse_outside_clients(client):
    before = _counter(client.get("/metrics").get_data(as_text=True), "paperlist_cache_hits_total")
    q = f"vision {uuid.uuid4().hex[:6]}"
    _search(client, q)
    resp, _ = _search(client, q)
    assert resp.headers["X-Cache"] == "hit"
    text = client.get("/metrics").get_data(as_text=True)
    assert _counter(text, "paperlist_cache_hits_total") == before + 1
    assert re.search(r'paperlist_http_requests_total\{method="GET",route="/api/v1/search",status="200"\} ', text)
    assert 'paperlist_search_backend_seconds_count{call="search"}' in text
    assert "paperlist_queue_depth{" in text and "paperlist_indexer_redis_up 1.0" in text
    outside = client.get("/metrics", environ_base={"REMOTE_ADDR": "8.8.8.8"})
    assert outside.status_code == 403 and outside.get_json()["error"]["code"] == "forbidden"
    assert client.get("/metrics", environ_base={"REMOTE_ADDR": "10.1.2.3"}).status_code == 200


def test_request_id_passed_through_or_made(client):
    given = client.get("/healthz", headers={"X-Request-ID": "front-42.abc"})
    assert given.headers["X-Request-ID"] == "front-42.abc"
    made = client.get("/healthz", headers={"X-Request-ID": "bad id <script>"})
    assert re.fullmatch(r"[0-9a-f]{32}", made.headers["X-Request-ID"])


def test_admin_routes_never_touch_the_cache(client):
    resp = client.get("/api/v1/admin/reindex", headers={"Authorization": "Bearer wrong"})
    assert resp.status_code == 401 and "X-Cache" not in resp.headers



def test_results_pages_are_kept_whole_until_the_data_changes(client, redis_client, sample_alias):
    """A Redis-hit page costs what the API's kept answer costs: no render (issue 17); a write renders anew."""
    gz = {"Accept-Encoding": "gzip"}
    path = "/search?q=graph+neural&conference=iclr"
    first = client.get(path, headers={**gz, "Cache-Control": "no-cache"})  # rendered, then kept
    kept = client.get(path, headers=gz)
    assert first.status_code == kept.status_code == 200 and kept.mimetype == "text/html"
    assert kept.headers["X-Cache"] == "hit" and kept.headers["Content-Encoding"] == "gzip"
    page = gzip.decompress(kept.get_data())
    assert page == gzip.decompress(first.get_data()) and b'<div class="paper-list">' in page
    assert client.get(path).get_data() == page  # unpacked for a client without gzip
    assert kept.headers["Content-Security-Policy"] and kept.headers["ETag"]  # the hooks' headers, as on any answer
    bump_generation(redis_client, sample_alias)
    redis_client.delete(settling_key(sample_alias))  # long ago: later tests' answers are kept the full TTL
    assert client.get(path, headers=gz).headers["X-Cache"] == "miss"


def test_every_page_and_order_of_a_search_shares_one_rendered_trends_section(client, monkeypatch):
    """The trends (fetched when a results page's section is opened) are kept as a fragment of the search,
    whatever page or order asked."""
    from services.web.render import trends as trends_render

    rendered = []
    real = trends_render.trends_view
    monkeypatch.setattr(trends_render, "trends_view", lambda req, trends: rendered.append(req.page) or real(req, trends))
    params = {"q": "learning", "sort": "newest", "page_size": "17", "partial": "1"}
    first = client.get("/search/trends", query_string=params, headers={"Cache-Control": "no-cache"})  # rendered, kept
    second = client.get("/search/trends", query_string={**params, "page": "2", "sort": "relevance"})
    assert first.status_code == second.status_code == 200 and rendered == [1]  # the second rendered none
    trends = [r.get_data(as_text=True) for r in (first, second)]
    assert trends[0] == trends[1] and '<svg class="chart"' in trends[0] and "page=" not in trends[0]
