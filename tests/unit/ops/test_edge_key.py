"""The edge cache's key (deploy/nginx/edge_key.js, run by nginx's njs): any order and encoding of a
query is the app's one canonical query (services.web.http.canonical), so permutations share one
entry; a query that is not UTF-8 is its own entry and never another's.

A small nginx with the same script answers each request with the key it computes.
"""

from __future__ import annotations

import http.client
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from urllib.parse import quote, quote_plus

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.ops.nginx import NJS_MODULE, TEMPLATES
from services.web.http.canonical import canonical_query

NGINX = shutil.which("nginx", path="/usr/sbin:/usr/bin")
pytestmark = [pytest.mark.skipif(not NGINX or not NJS_MODULE.is_file(),
                                 reason="Debian's nginx and libnginx-mod-http-js are not installed"),
              pytest.mark.allow_hosts(["127.0.0.1"])]  # its own nginx on loopback (the unit tier reaches no other)

CONFIG = """
load_module {module};
daemon off;
worker_processes 1;
pid {dir}/nginx.pid;
error_log {dir}/error.log;
events {{ worker_connections 16; }}
http {{
    access_log off;
    client_body_temp_path {dir}/tmp;
    proxy_temp_path {dir}/tmp;
    fastcgi_temp_path {dir}/tmp;
    uwsgi_temp_path {dir}/tmp;
    scgi_temp_path {dir}/tmp;
    large_client_header_buffers 4 8000;
    js_import edge_key from {njs}/edge_key.js;
    js_set $paperlist_edge_uri edge_key.uri;
    server {{
        listen 127.0.0.1:{port};
        location / {{ return 200 $paperlist_edge_uri; }}
    }}
}}
"""


@pytest.fixture(scope="module")
def key_of():
    """``key_of(raw_request_uri)``: the edge key nginx computes for it."""
    home = Path(tempfile.mkdtemp(prefix="paperlist-edge-key-"))
    (home / "tmp").mkdir()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    conf = home / "nginx.conf"
    conf.write_text(CONFIG.format(module=NJS_MODULE, dir=home, njs=TEMPLATES, port=port))
    proc = subprocess.Popen([NGINX, "-p", f"{home}/", "-e", str(home / "error.log"), "-c", str(conf)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read() if proc.stderr else ""
            time.sleep(0.05)

    def key(uri: str) -> str:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        conn.putrequest("GET", uri, skip_accept_encoding=True)
        conn.endheaders()
        body = conn.getresponse().read().decode("utf-8")
        conn.close()
        return body

    yield key
    proc.terminate()
    proc.wait(timeout=10)
    shutil.rmtree(home, ignore_errors=True)


def test_the_docs_example_in_any_order_is_one_key(key_of):
    orders = ("q=diffusion&conference=neurips&year=2020-2025&page_size=5",
              "page_size=5&year=2020-2025&conference=neurips&q=diffusion",
              "year=2020-2025&q=diffusion&page_size=5&conference=neurips")
    keys = {key_of(f"/api/v1/search?{query}") for query in orders}
    assert keys == {"/api/v1/search?conference=neurips&page_size=5&q=diffusion&year=2020-2025"}


@pytest.mark.parametrize("uri, key", [
    ("/search?q=graph%20nets", "/search?q=graph+nets"),
    ("/search?q=graph+nets", "/search?q=graph+nets"),
    ("/search?q=caf%c3%a9&a=%2b", "/search?a=%2B&q=caf%C3%A9"),
    ("/search?venue=b&q=x&venue=a", "/search?q=x&venue=b&venue=a"),  # a repeated parameter keeps its order
    ("/search?b&&a=", "/search?a=&b="),                                   # as the app reads them
    ("/search?", "/search"),
    ("/papers/x%20y", "/papers/x%20y"),                                   # the path stays as sent
    ("/search?q=%FF%FE&a=1", "/search?!q=%FF%FE&a=1"),                    # not UTF-8: its own entry
    ("/search?q=%C3%28", "/search?!q=%C3%28"),
    ("/search?q=%G1", "/search?!q=%G1"),
])
def test_encodings_and_blanks(key_of, uri, key):
    assert key_of(uri) == key


NAMES = st.sampled_from(["q", "conference", "year", "page_size", "a b", "x+y", "é", "a=b", "", "z&"])
VALUES = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)


@settings(max_examples=150)
@given(pairs=st.lists(st.tuples(NAMES, VALUES), max_size=6), data=st.data())
def test_any_order_and_encoding_is_the_apps_canonical_query(key_of, pairs, data):
    # A permutation that keeps the order of a repeated parameter's values (the app reads them in order).
    order = data.draw(st.permutations(range(len(pairs))))
    by_name: dict[str, list[tuple[str, str]]] = {}
    for name, value in pairs:
        by_name.setdefault(name, []).append((name, value))
    sent = [by_name[pairs[i][0]].pop(0) for i in order]
    plus = data.draw(st.lists(st.booleans(), min_size=len(sent), max_size=len(sent)))
    raw = "&".join(f"{quote_plus(n, safe='') if p else quote(n, safe='')}={quote_plus(v, safe='') if p else quote(v, safe='')}"
                   for (n, v), p in zip(sent, plus, strict=True))
    expected = canonical_query(pairs)
    assert key_of(f"/search?{raw}") == (f"/search?{expected}" if expected else "/search")
