"""Hostile requests through the real front (nginx in front of gunicorn, over the ingested sample).

The in-process fuzz (test_web_fuzz.py) sends thousands of requests to the app itself; this one
sends the same kind of requests, plus request lines and headers past the front's buffers, to
nginx, as clients do. Required of every answer: never a 500 or an nginx 5xx; never nginx's own
error page; on ``/api/`` every error in the contract's JSON shape, elsewhere the site's own page.
A 503 is the app's word that the search ran out of its time budget on a loaded machine (load, not
input): allowed, when it is the app's answer with its ``Retry-After``.

``FUZZ_FRONT_REQUESTS`` / ``FUZZ_SEED`` change the amount and the seed.
"""

from __future__ import annotations

import gzip
import http.client
import json
import os
import sys
from collections import Counter

import pytest
from hostile import Hostile, query_string, request_path

from conftest import running_front

pytestmark = [pytest.mark.integration, pytest.mark.slow]

REQUESTS = int(os.environ.get("FUZZ_FRONT_REQUESTS", "300"))
SEED = int(os.environ.get("FUZZ_SEED", "1010"))
TIMEOUT = 15  # seconds: nginx gives gunicorn 5 per read
METHODS = ("GET",) * 12 + ("HEAD", "HEAD", "POST", "OPTIONS", "DELETE")
SITE_PAGE = b'<header class="site-header">'  # the site's pages have it; nginx's own error page has not
OVERSIZED = ("q", "conference", "text")  # parameters sometimes sent far past the front's request line


@pytest.fixture(scope="module")
def front(settings, sample_alias):
    with running_front(settings, sample_alias, PAPERLIST_RATE_LIMIT_ENABLED="false") as stack:
        yield stack


def _send(front, method: str, url: str, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", front.settings.port, timeout=TIMEOUT)
    try:
        conn.putrequest(method, url, skip_accept_encoding=True)
        for name, value in headers.items():
            conn.putheader(name, value)
        conn.endheaders()
        resp = conn.getresponse()
        answer_headers = {k.lower(): v for k, v in resp.getheaders()}
        body = resp.read()
        if answer_headers.get("content-encoding") == "gzip" and body:
            body = gzip.decompress(body)
        return resp.status, answer_headers, body
    finally:
        conn.close()


def _problems(method: str, url: str, status: int, headers: dict[str, str], body: bytes) -> list[str]:
    api = url.startswith("/api/")
    if status >= 500 and not (status == 503 and "retry-after" in headers and (api or SITE_PAGE in body
                                                                             or method == "HEAD")):
        return [f"status {status}"]
    if status < 400 or method == "HEAD":
        return []
    if api:
        try:
            error = json.loads(body)["error"]
            ok = isinstance(error["code"], str) and error["code"] and isinstance(error["message"], str)
        except (ValueError, KeyError, TypeError):
            ok = False
        return [] if ok else [f"{status} not in the contract's JSON shape: {body[:120]!r}"]
    if not headers.get("content-type", "").startswith("text/html") or SITE_PAGE not in body:
        return [f"{status} is not the site's page: {body[:120]!r}"]
    return []


def test_hostile_requests_through_the_front_get_the_sites_answers(front, app):
    routes = [(rule.rule, sorted(rule.arguments)) for rule in app.url_map.iter_rules() if rule.endpoint != "static"]
    gen = Hostile(SEED)
    statuses: Counter = Counter()
    failures: list[str] = []
    for i in range(REQUESTS):
        rule, arguments = routes[i % len(routes)]
        method = gen.choice(METHODS)
        query = query_string(gen)
        r = gen.rng.random()
        if r < 0.08:  # a request line past the front's buffers (414)
            query = f"{gen.choice(OVERSIZED)}={'a' * gen.rng.choice((4_600, 9_000, 20_000))}&{query}"
        headers = {"Accept-Encoding": gen.choice(("gzip", "identity"))}
        if 0.08 <= r < 0.12:  # a header past them (431)
            headers["X-Big"] = "b" * gen.rng.choice((9_000, 20_000))
        url = request_path(rule, arguments, gen, []) + (f"?{query}" if query else "")
        status, answer_headers, body = _send(front, method, url, headers)
        statuses[status] += 1
        failures += [f"{method} {url[:160]} -> {problem}" for problem in _problems(method, url, status, answer_headers,
                                                                                   body)]
    print(f"\nfront fuzz: {REQUESTS} requests (seed {SEED}), by status {dict(sorted(statuses.items()))}, "
          f"failures {len(failures)}", file=sys.stderr)
    assert statuses[414] and statuses[431], statuses  # the front's own limits were met
    assert not failures, failures[:20]
