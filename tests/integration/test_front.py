"""nginx in front of gunicorn, started by the stack as `paperlist up` does, on a spare loopback port.

Idle and slow clients are held by nginx, not by gunicorn's few threads; the errors nginx
itself raises on the API keep the contract's JSON shape.
"""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
from pathlib import Path

import pytest
import requests

from conftest import SAMPLE, _test_settings, drop_alias, run_ingest
from services.ops import LocalStack

pytestmark = pytest.mark.integration

HALF_OPEN = 200
PROBE_TIMEOUT = 5  # a bound so a starved front fails the test instead of hanging it


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
                                  PAPERLIST_WEB_THREADS="4")
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


def test_web_service_down_is_a_json_502_with_retry_after(front):
    """Last in this module: it stops gunicorn, and only `down` is left to run after it."""
    assert front.web.stop(timeout=30)
    resp = requests.get(f"{front.url}/api/v1/search", params={"q": "x"}, timeout=PROBE_TIMEOUT)
    assert resp.status_code == 502 and resp.json()["error"]["code"] == "unavailable"
    assert resp.headers["Retry-After"] == "5"
    page = requests.get(f"{front.url}/", timeout=PROBE_TIMEOUT)
    assert page.status_code == 502 and page.headers["Content-Type"].startswith("text/html")
