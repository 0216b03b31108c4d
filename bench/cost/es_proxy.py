"""The floor of a Python web tier for a search: a WSGI app that only passes the search on.

``python -m bench.cost.miss_cost --proxy-url`` asks it the same queries as the API: it reads ``q``, builds
the body the service sends (:func:`services.search.query.semantic.build_ranked`, as the
``es_full`` variant does), posts it to Elasticsearch and answers Elasticsearch's bytes as they
came (gzip passed on). No cache, no shaping, no hooks. Served by gunicorn with the app's own
settings (``deploy/gunicorn.conf.py``), what it adds over ``es_full`` is what any Python service
on this machine adds to the same search (an HTTP hop, a worker thread, building the body):
the API's surplus over it is the API's own work.

    PAPERLIST_WEB_BIND=127.0.0.1:8035 PAPERLIST_WEB_WORKERS=1 \\
        python -m gunicorn -c deploy/gunicorn.conf.py bench.cost.es_proxy:app
"""

from __future__ import annotations

import json
from urllib.parse import parse_qs

import urllib3

from services.search.query.request import parse_request
from services.search.query.semantic import build_ranked
from services.settings import load_settings

_settings = load_settings()
_pool = urllib3.PoolManager(maxsize=16)
_url = f"{_settings.es_hosts[0]}/{_settings.index}/_search?request_cache=false"


def app(environ, start_response):
    args = parse_qs(environ.get("QUERY_STRING", ""))
    body = build_ranked(parse_request({"q": args.get("q", [""])}, allow_search_after=True))
    body.pop("suggest", None)
    headers = {"Content-Type": "application/json"}
    if "gzip" in environ.get("HTTP_ACCEPT_ENCODING", ""):
        headers["Accept-Encoding"] = "gzip"
    resp = _pool.request("POST", _url, body=json.dumps(body).encode(), headers=headers, decode_content=False)
    passed = [(k, v) for k, v in resp.headers.items() if k.lower() in ("content-type", "content-encoding")]
    start_response(f"{resp.status} {resp.reason}", [*passed, ("Content-Length", str(len(resp.data)))])
    return [resp.data]
