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
import itertools
import os
import re
import socket
import time
from pathlib import Path
from urllib.parse import parse_qsl, quote, urlencode

import pytest
import requests

from conftest import SAMPLE, drop_alias, run_ingest, running_front
from services.search.limits import MAX_REQUEST_LINE
from services.web.http.canonical import canonical_query

pytestmark = pytest.mark.integration

HALF_OPEN = 200
PROBE_TIMEOUT = 5  # a bound so a starved front fails the test instead of hanging it
EDGE_TTL = 2  # seconds the edge keeps an answer here (PAPERLIST_EDGE_TTL; 5 by default)
EXPIRED = EDGE_TTL + 1.5  # nginx counts validity in whole seconds: an entry may outlive its TTL by one
SETTLE = 2.5  # services.search.engine.generation.SETTLE_MS: answers made meanwhile are kept no longer
APP_LIMIT = 10  # per minute, for the client on 127.0.0.3 (127.0.0.1 is exempt)
ADMIN_TOKEN = "front-admin-token"
GZIP = {"Accept-Encoding": "gzip"}


@pytest.fixture(scope="module")
def front(settings, stores, es, celery_app, redis_client, worker, tmp_path_factory):
    """The web stack (gunicorn on a socket, nginx in front) over a small ingested alias: COLT, and the
    sample's NeurIPS papers (the API docs' example names NeurIPS)."""
    alias = f"test-front-{os.getpid()}"
    summary = run_ingest(settings, celery_app, es, redis_client, [SAMPLE / "colt", SAMPLE / "neurips"], alias,
                         rejects_dir=tmp_path_factory.mktemp("rejects"))
    assert summary.indexed > 0
    try:
        with running_front(settings, alias, PAPERLIST_EDGE_TTL=str(EDGE_TTL),
                           PAPERLIST_RATE_LIMIT=f"{APP_LIMIT}/minute", PAPERLIST_ADMIN_TOKEN=ADMIN_TOKEN) as stack:
            for _ in range(3):  # warm: the first searches open the client and load caches
                requests.get(f"{stack.url}/api/v1/search", params={"q": "learning"}, timeout=30)
            yield stack
    finally:
        drop_alias(es, alias)


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


SITE_PAGE = '<header class="site-header">'  # the site's own pages have it; nginx's own error page has not


def test_errors_nginx_raises_off_the_api_are_the_sites_pages(front):
    resp = requests.get(f"{front.url}/search", headers={"X-Big": "b" * 9000}, timeout=PROBE_TIMEOUT)
    assert resp.status_code == 431 and resp.headers["Content-Type"].startswith("text/html")
    assert SITE_PAGE in resp.text and "That request is too large" in resp.text
    too_long = requests.get(f"{front.url}/search?q={'a' * 10_000}", timeout=PROBE_TIMEOUT)
    assert too_long.status_code == 414 and SITE_PAGE in too_long.text
    assert 'href="/similar">Papers like mine</a>' in too_long.text
    # A form too large for the front: the site's page, and the kept-alive gunicorn is not left waiting for
    # the body it was never sent (it would swallow the next request on that connection: a 502).
    big = requests.post(f"{front.url}/similar", data={"text": "x" * 100_000}, timeout=PROBE_TIMEOUT)
    assert big.status_code == 413 and SITE_PAGE in big.text
    after = [_get(front, f"/api/v1/search?q=after+{i}").status_code for i in range(6)]
    assert after == [200] * 6


def test_malformed_request_line_gets_a_json_400(front):
    with socket.create_connection(("127.0.0.1", front.settings.port), timeout=PROBE_TIMEOUT) as sock:
        sock.sendall(b"GARBAGE\r\n\r\n")
        answer = sock.recv(4096).decode()
    assert answer.startswith("HTTP/1.1 400") and '"code": "bad_request"' in answer


ROUTES = ("/api/v1/search?", "/search?", "/search.atom?", "/api/v1/export?format=bibtex&")
BAD_INPUT = {  # what was sent -> what the answer must name
    "q=" + "a" * 4_600: "4,600 characters",   # past the app's limit, within the front's: the app's 400
    "q=" + "a" * 10_000: "",                   # past the front's too: its 414, as JSON or the site's page
    "q=%C3%28": "q: not valid UTF-8",
    "q=%FF%FE": "q: not valid UTF-8",
    "conference=foo": "no papers from 'foo'",
    "conference=%C3": "conference: not valid UTF-8",
}


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("query", list(BAD_INPUT))
def test_bad_input_gets_a_clear_answer_never_a_server_page(front, route, query):
    resp = _direct(front, route + query)
    assert 400 <= resp.status_code < 500, resp.status_code
    assert resp.headers["Cache-Control"] == "no-store"
    if route.startswith("/api/"):
        error = resp.json()["error"]
        assert error["code"] and BAD_INPUT[query] in error["message"], error
    else:
        assert resp.headers["Content-Type"].startswith("text/html") and SITE_PAGE in resp.text, resp.text[:300]
        assert BAD_INPUT[query] in html.unescape(resp.text)
    if len(route + query) > MAX_REQUEST_LINE:
        assert resp.status_code == 414


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


# The API docs' own example (services/web/views/pages.py API_EXAMPLES), as people paste it into curl.
DOCS_EXAMPLE = (("q", "diffusion"), ("conference", "neurips"), ("year", "2020-2025"), ("page_size", "5"))


def _direct(front, path: str, method: str = "GET", **kwargs) -> requests.Response:
    """A request as curl without -L sends it: a redirect would be the answer."""
    resp = requests.request(method, front.url + path, timeout=PROBE_TIMEOUT, allow_redirects=False, **kwargs)
    assert "Location" not in resp.headers, (path, resp.status_code, resp.headers["Location"])
    return resp


def test_every_order_of_the_docs_example_is_answered_from_one_edge_entry(front):
    front.nginx.purge_edge()
    answers = {}
    for order in itertools.permutations(DOCS_EXAMPLE):
        path = "/api/v1/search?" + urlencode(order)
        answers[path] = [_direct(front, path), _direct(front, path)]  # a permutation, asked twice
    first, *others = answers.values()
    assert len(answers) == 24 and _edge(first[0]) == "MISS"
    for path, (one, two) in answers.items():
        assert one.status_code == two.status_code == 200, path
        assert one.content == two.content == first[0].content, path  # the same answer in every order
        assert _edge(two) == "HIT", (path, _edge(two))
    assert all(_edge(one) == "HIT" for one, _ in others)  # one entry for all 24 orders
    head = _direct(front, "/api/v1/search?" + urlencode(DOCS_EXAMPLE[::-1]), "HEAD")
    assert head.status_code == 200 and head.content == b"" and _edge(head) == "HIT"
    assert head.headers["Content-Type"] == first[0].headers["Content-Type"]


@pytest.mark.parametrize("path", ["/api/v1/search?page_size=3&q={}", "/search.atom?q={}&conference=colt",
                                  "/api/v1/suggest?q={}", "/search?q={}&sort=newest"])
def test_a_space_as_percent_20_or_plus_and_head_are_answered_directly(front, path):
    """What encodeURIComponent writes (%20), what forms write (+), and HEAD: 200, one entry, no redirect."""
    words = "online learning"
    plus, percent = path.format(words.replace(" ", "+")), path.format(quote(words, safe=""))
    one, two = _direct(front, percent, headers=GZIP), _direct(front, plus, headers=GZIP)
    assert one.status_code == two.status_code == 200 and one.content == two.content
    assert _edge(two) == "HIT"
    assert _direct(front, percent, "HEAD", headers=GZIP).status_code == 200


def test_post_is_never_cached(front):
    post = _direct(front, "/api/v1/similar?z=1&a=2", "POST", json={"text": "bandit feedback regret"})
    assert post.status_code in (200, 503) and _edge(post) == "BYPASS"  # 503: a kNN over its budget


LINKS_FOLLOWED = 40  # a bounded sample of a page's links, each asked of the front once


def test_every_link_of_a_filtered_results_page_is_canonical_through_the_front(front):
    """The app's own links are in the canonical order (the form of a search people see and share)."""
    page = _get(front, "/search?conference=colt&q=learning&sort=newest&year=2020-2026", allow_redirects=False)
    assert page.status_code == 200, page.status_code
    links = sorted({html.unescape(href) for href in re.findall(r'href="(/[^"]*\?[^"]*)"', page.text)})
    with_filters = [link for link in links if link.count("&") >= 2]
    assert len(with_filters) > 20, links[:20]  # toggles, chart bars, paging, exports: several parameters each
    out_of_order = [link for link in links
                    if canonical_query(parse_qsl(link.split("?", 1)[1], keep_blank_values=True)) != link.split("?", 1)[1]]
    assert not out_of_order, out_of_order[:5]
    step = max(1, len(with_filters) // LINKS_FOLLOWED)
    followed = {link: _get(front, link, allow_redirects=False).status_code for link in with_filters[::step]}
    assert followed and not [link for link, status in followed.items() if status != 200], followed


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
    path = "/api/v1/search?page_size=1&q=conference%3Aalt"  # a scope: ALT has no papers yet (conference=alt: a 400)
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
