"""nginx in front of gunicorn, started by the stack as `paperlist up` does, on a spare loopback port.

Idle and slow clients are held by nginx, not by gunicorn's few threads; the errors nginx
itself raises on the API keep the contract's JSON shape. The edge cache keeps anonymous
answers for the edge TTL (a short one here), shares one entry between permutations of
the parameters, never keeps anything personal or admin, revalidates without a render,
shows a new ingest within the TTL and answers stale while gunicorn is down. Rate limits
through the front exempt 127.0.0.1, not 127.0.0.3.
"""

from __future__ import annotations

import html
import http.client
import os
import re
import shutil
import socket
import tempfile
import time
from pathlib import Path
from urllib.parse import parse_qsl

import pytest
import requests

from conftest import SAMPLE, _test_settings, drop_alias, run_ingest
from services.ops import LocalStack
from services.web.http.canonical import redirect_target

pytestmark = pytest.mark.integration

HALF_OPEN = 200
PROBE_TIMEOUT = 5  # a bound so a starved front fails the test instead of hanging it
EDGE_TTL = 2  # seconds the edge keeps an answer here (PAPERLIST_EDGE_TTL; 5 by default)
EXPIRED = EDGE_TTL + 1.5  # nginx counts validity in whole seconds: an entry may outlive its TTL by one
SETTLE = 2.5  # services.search.generation.SETTLE_MS: answers made meanwhile are kept no longer
APP_LIMIT = 10  # per minute, for the client on 127.0.0.3 (127.0.0.1 is exempt)
ADMIN_TOKEN = "front-admin-token"
GZIP = {"Accept-Encoding": "gzip"}


def _free_port() -> int:
    """An ephemeral loopback port the kernel says is free: never 8000, where a developer's `paperlist up` runs."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def front(settings, stores, es, celery_app, redis_client, worker):
    """The web stack (gunicorn on a socket, nginx in front) over a small ingested alias."""
    alias = f"test-front-{os.getpid()}"
    home = Path(tempfile.mkdtemp(prefix="paperlist-front-"))
    home.chmod(0o755)  # nginx's workers (www-data when run as root) must reach the socket
    summary = run_ingest(settings, celery_app, es, redis_client, [SAMPLE / "colt"], alias,
                         rejects_dir=home / "rejects")
    assert summary.indexed > 0
    web_settings = _test_settings(PAPERLIST_INDEX=alias, PAPERLIST_QUEUE=settings.queue,
                                  REDIS_URL=settings.redis_url, PAPERLIST_HOME=str(home),
                                  PAPERLIST_PORT=str(_free_port()), PAPERLIST_WEB_WORKERS="1",
                                  PAPERLIST_WEB_THREADS="4", PAPERLIST_EDGE_TTL=str(EDGE_TTL),
                                  PAPERLIST_RATE_LIMIT=f"{APP_LIMIT}/minute", PAPERLIST_ADMIN_TOKEN=ADMIN_TOKEN)
    stack = LocalStack(web_settings, log=lambda line: None)
    try:
        stack.ensure_web()
        for _ in range(3):  # warm: the first searches open the client and load caches
            requests.get(f"{stack.url}/api/v1/search", params={"q": "learning"}, timeout=30)
        yield stack
    finally:
        stopped = stack.down()
        drop_alias(es, alias)
        shutil.rmtree(home, ignore_errors=True)
    assert stopped[0] == "nginx" and not stack.nginx.answers(), "down must stop the front"


def _still_open(sock: socket.socket) -> bool:
    sock.setblocking(False)
    try:
        return sock.recv(1) != b""
    except BlockingIOError:
        return True  # nothing to read and not closed: the connection is held
    except OSError:
        return False
    finally:
        sock.setblocking(True)


def test_half_open_connections_do_not_starve_the_site(front):
    held = []
    try:
        for _ in range(HALF_OPEN):
            sock = socket.create_connection(("127.0.0.1", front.settings.port), timeout=PROBE_TIMEOUT)
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-a: ")
            held.append(sock)
        health = requests.get(f"{front.url}/healthz", timeout=PROBE_TIMEOUT)
        search = requests.get(f"{front.url}/api/v1/search", params={"q": "learning"}, timeout=PROBE_TIMEOUT)
        page = requests.get(f"{front.url}/search", params={"q": "learning"}, timeout=PROBE_TIMEOUT)
        assert sum(_still_open(sock) for sock in held) == HALF_OPEN, "the idle clients were dropped, not held"
    finally:
        for sock in held:
            sock.close()
    assert health.status_code == 200 and health.json() == {"status": "ok"}
    assert search.status_code == 200 and search.json()["total"] > 0
    assert page.status_code == 200 and "text/html" in page.headers["Content-Type"]


def test_requests_pass_through_with_forwarded_headers_and_static_files(front):
    resp = requests.get(f"{front.url}/api/v1/search", params={"q": "bandit"}, timeout=PROBE_TIMEOUT,
                        headers={"Accept-Encoding": "gzip"})
    assert resp.status_code == 200 and resp.headers.get("Server") == "nginx"
    static = requests.get(f"{front.url}/static/style.css", headers={"Accept-Encoding": "gzip"},
                          timeout=PROBE_TIMEOUT)
    assert static.status_code == 200 and static.headers["Content-Encoding"] == "gzip"
    assert "max-age=" in static.headers["Cache-Control"]
    assert "charset=utf-8" in static.headers["Content-Type"]
    assert static.content == (Path(__file__).parents[2] / "services/web/static/style.css").read_bytes()


@pytest.mark.parametrize("path, headers, body, status, code", [
    ("/api/v1/search?q=" + "a" * 9000, {}, None, 414, "uri_too_long"),
    ("/api/v1/search", {"X-Big": "b" * 9000}, None, 431, "headers_too_large"),
    ("/api/v1/search", {}, b"x" * 100_000, 413, "too_large"),
])
def test_errors_nginx_raises_on_the_api_are_contract_json(front, path, headers, body, status, code):
    method = "POST" if body else "GET"
    resp = requests.request(method, front.url + path, headers=headers, data=body, timeout=PROBE_TIMEOUT)
    assert resp.status_code == status
    assert resp.headers["Content-Type"] == "application/json"
    assert resp.json()["error"]["code"] == code and resp.json()["error"]["message"]


def test_errors_nginx_raises_off_the_api_are_pages(front):
    resp = requests.get(f"{front.url}/search", headers={"X-Big": "b" * 9000}, timeout=PROBE_TIMEOUT)
    assert resp.status_code == 431 and resp.headers["Content-Type"].startswith("text/html")
    assert "<h1>431</h1>" in resp.text


def test_malformed_request_line_gets_a_json_400(front):
    with socket.create_connection(("127.0.0.1", front.settings.port), timeout=PROBE_TIMEOUT) as sock:
        sock.sendall(b"GARBAGE\r\n\r\n")
        answer = sock.recv(4096).decode()
    assert answer.startswith("HTTP/1.1 400") and '"code": "bad_request"' in answer


def _get(front, path: str, **kwargs) -> requests.Response:
    kwargs.setdefault("timeout", PROBE_TIMEOUT)
    return requests.get(front.url + path, **kwargs)


def _edge(resp: requests.Response) -> str:
    return resp.headers.get("X-Cache-Edge", "")


def test_a_second_get_is_an_edge_hit_with_the_same_answer(front):
    first = _get(front, "/search?q=online+learning", headers=GZIP)
    second = _get(front, "/search?q=online+learning", headers=GZIP)
    assert first.status_code == second.status_code == 200
    assert _edge(first) == "MISS" and _edge(second) == "HIT"
    assert second.content == first.content and "s-maxage=" in second.headers["Cache-Control"]
    api = [_get(front, "/api/v1/search?q=online+learning", headers=GZIP) for _ in range(2)]
    assert [_edge(r) for r in api] == ["MISS", "HIT"] and api[1].json() == api[0].json()
    plain = _get(front, "/api/v1/search?q=online+learning", headers={"Accept-Encoding": "identity"})
    assert _edge(plain) == "MISS" and "Content-Encoding" not in plain.headers  # its own entry
    assert plain.json() == api[0].json()


def test_parameter_permutations_share_one_edge_entry(front):
    canonical = "/api/v1/search?page_size=5&q=bandit+feedback"
    assert _edge(_get(front, canonical)) == "MISS"
    moved = _get(front, "/api/v1/search?q=bandit+feedback&page_size=5", allow_redirects=False)
    assert moved.status_code == 308 and moved.headers["Location"] == canonical
    followed = _get(front, "/api/v1/search?q=bandit%20feedback&page_size=5")
    assert followed.status_code == 200 and _edge(followed) == "HIT"
    assert [r.status_code for r in followed.history] == [308]
    post = requests.post(f"{front.url}/api/v1/similar?z=1&a=2", json={"text": "bandit feedback regret"},
                         timeout=PROBE_TIMEOUT, allow_redirects=False)
    assert post.status_code != 308 and _edge(post) == "BYPASS"  # POST is never redirected nor cached


LINKS_FOLLOWED = 40  # a bounded sample of a page's links, each asked of the front once


def test_every_link_of_a_filtered_results_page_is_canonical_through_the_front(front):
    """The app's own links are in the edge's canonical order: a click is never a 308 (issue 17)."""
    page = _get(front, "/search?conference=colt&q=learning&sort=newest&year=2020-2026", allow_redirects=False)
    assert page.status_code == 200, page.status_code
    links = sorted({html.unescape(href) for href in re.findall(r'href="(/[^"]*\?[^"]*)"', page.text)})
    with_filters = [link for link in links if link.count("&") >= 2]
    assert len(with_filters) > 20, links[:20]  # toggles, chart bars, paging, exports: several parameters each
    out_of_order = [link for link in links if redirect_target(link.split("?", 1)[0], link.split("?", 1)[1],
                                                              parse_qsl(link.split("?", 1)[1],
                                                                        keep_blank_values=True))]
    assert not out_of_order, out_of_order[:5]
    step = max(1, len(with_filters) // LINKS_FOLLOWED)
    followed = {link: _get(front, link, allow_redirects=False).status_code for link in with_filters[::step]}
    assert followed and not [link for link, status in followed.items() if status == 308], followed


def test_personal_admin_probe_and_post_answers_are_never_cached(front):
    path = "/search?q=regret+bounds"
    assert _edge(_get(front, path)) == "MISS" and _edge(_get(front, path)) == "HIT"
    for personal in ({"Authorization": "Bearer someone"}, {"Cookie": "session=abc"}):
        answers = [_get(front, path, headers=personal) for _ in range(2)]
        assert [_edge(r) for r in answers] == ["BYPASS", "BYPASS"], personal
        assert all(r.status_code == 200 and r.headers.get("X-Cache") for r in answers)  # from the app
    admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    for path in ("/api/v1/admin/reindex", "/healthz", "/readyz", "/metrics"):
        answers = [_get(front, path, headers=admin) for _ in range(2)]
        assert all(_edge(r) == "BYPASS" for r in answers), path
        assert all("no-store" in r.headers.get("Cache-Control", "no-store") for r in answers), path
    for _ in range(2):
        post = requests.post(f"{front.url}/api/v1/similar", json={"text": "regret bounds for bandits"},
                             timeout=PROBE_TIMEOUT)
        assert post.status_code in (200, 503) and _edge(post) == "BYPASS"  # 503: a kNN over its budget


def _figure(front, name: str, label: str = "") -> float:
    """A counter's total over gunicorn's workers, from /metrics (never cached)."""
    text = _get(front, "/metrics").text
    return sum(float(value) for value in
               re.findall(rf"^{name}(?:{{[^}}]*{label}[^}}]*}})? (\S+)$", text, re.MULTILINE))


def test_a_conditional_request_gets_a_304_without_a_render(front):
    path = "/search?q=adversarial+bandits"
    page = _get(front, path, headers=GZIP)
    assert page.status_code == 200 and page.headers["ETag"]
    renders = _figure(front, "paperlist_renders_total", 'template="search.html"')
    revalidated = _figure(front, "paperlist_revalidated_total")
    assert renders > 0
    # Past the edge (a cookie bypasses it): the app itself answers 304 from the canonical tag.
    held = {**GZIP, "If-None-Match": page.headers["ETag"], "Cookie": "seen=1"}
    again = _get(front, path, headers=held)
    assert again.status_code == 304 and _edge(again) == "BYPASS" and again.content == b""
    # The edge's own revalidation of its expired entry (If-None-Match upstream): no render either.
    time.sleep(EXPIRED)
    outcomes = [_edge(_get(front, path, headers=GZIP))]
    deadline = time.monotonic() + 10
    while outcomes[-1] != "HIT" and time.monotonic() < deadline:
        time.sleep(0.1)
        outcomes.append(_edge(_get(front, path, headers=GZIP)))
    assert outcomes[0] in ("STALE", "REVALIDATED", "UPDATING") and outcomes[-1] == "HIT", outcomes
    assert _figure(front, "paperlist_revalidated_total") >= revalidated + 2
    assert _figure(front, "paperlist_renders_total", 'template="search.html"') == renders


def test_a_cached_answer_shows_a_new_ingest_within_the_edge_ttl(front, settings, celery_app, es, redis_client,
                                                               tmp_path):
    path = "/api/v1/search?conference=alt&page_size=1"
    before = [_get(front, path, headers=GZIP) for _ in range(2)]
    assert before[0].status_code == 200 and before[0].json()["total"] == 0 and _edge(before[1]) == "HIT"
    summary = run_ingest(settings, celery_app, es, redis_client, [SAMPLE / "alt"], front.settings.index,
                         rejects_dir=tmp_path / "rejects")
    assert summary.indexed > 0
    landed = time.monotonic()
    seen = []
    while time.monotonic() - landed < EDGE_TTL + SETTLE + 5:  # bounded; the claim is the TTL
        resp = _get(front, path, headers=GZIP)
        seen.append((round(time.monotonic() - landed, 1), _edge(resp), resp.json()["total"]))
        if resp.json()["total"] > 0:
            break
        time.sleep(0.2)
    assert seen[-1][2] > 0, seen
    assert seen[-1][0] <= EDGE_TTL + SETTLE + 1, seen  # within the TTL (and one settling window)


def _status_from(source: str, front, path: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", front.settings.port, timeout=PROBE_TIMEOUT,
                                      source_address=(source, 0))
    try:
        conn.request("GET", path)
        return conn.getresponse().status
    finally:
        conn.close()


def test_rate_limits_through_the_front_spare_only_the_configured_address(front):
    """127.0.0.1 is exempt (PAPERLIST_RATE_LIMIT_EXEMPT), 127.0.0.3 is limited like any client."""
    requests_made = 3 * APP_LIMIT  # two fixed windows of a minute cannot both stay under the limit
    mine = [_status_from("127.0.0.1", front, f"/api/v1/search?q=exempt+{i}") for i in range(requests_made)]
    other = [_status_from("127.0.0.3", front, f"/api/v1/search?q=limited+{i}") for i in range(requests_made)]
    assert set(mine) == {200}
    assert 429 in other and other[0] == 200
    # nginx's own flood guard counts edge hits too: a burst at one cached answer meets its 429.
    cached = "/api/v1/search?q=limited+0"
    guard = []
    for _ in range(600):
        guard.append(_status_from("127.0.0.3", front, cached))
        if guard[-1] == 429:
            break
    assert guard[-1] == 429 and set(_status_from("127.0.0.1", front, cached) for _ in range(20)) == {200}


def test_web_service_down_serves_stale_pages_and_a_json_502_with_retry_after(front):
    """Last in this module: it stops gunicorn, and only `down` is left to run after it."""
    kept = "/conferences/colt"
    assert [_edge(_get(front, kept, headers=GZIP)) for _ in range(2)] == ["MISS", "HIT"]
    assert front.web.stop(timeout=30)
    time.sleep(EXPIRED)  # the entry has expired: only the stale copy is left
    stale = _get(front, kept, headers=GZIP)
    assert stale.status_code == 200 and _edge(stale) == "STALE" and "colt" in stale.text.lower()
    resp = requests.get(f"{front.url}/api/v1/search", params={"q": "x"}, timeout=PROBE_TIMEOUT)
    assert resp.status_code == 502 and resp.json()["error"]["code"] == "unavailable"
    assert resp.headers["Retry-After"] == "5"
    page = requests.get(f"{front.url}/", timeout=PROBE_TIMEOUT)
    assert page.status_code == 502 and page.headers["Content-Type"].startswith("text/html")
