"""The MCP server on the real services, through the SDK's own client, over both transports: stdio (``paperlist mcp``
as a client starts it) and streamable HTTP (``/mcp`` through nginx, uvicorn on its socket, as ``paperlist up`` starts
them). Each lists the tools, calls every one over the ingested sample, and gets a tool error (isError) for a bad
argument, never a crash or a protocol error; through the front, /mcp is limited per address as the API is.
"""

from __future__ import annotations

import http.client
import json
import os
import sys
import time

import anyio
import pytest
from mcp import Client, StdioServerParameters

from conftest import running_front
from services.mcp_server.server import TOOLS
from services.settings import PROJECT_ROOT

pytestmark = pytest.mark.integration
NAMES = [spec.name for spec in TOOLS]
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}}
MCP_HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


async def _every_tool(client: Client) -> dict[str, object]:
    """List the tools, call each on what the sample holds (found by the search itself), and one bad call."""
    listed = [t.name for t in (await client.list_tools()).tools]
    calls: dict[str, object] = {"listed": listed}
    found = await client.call_tool("search_papers", {"q": "learning", "page_size": 5, "status": "accept"})
    calls["search_papers"] = found
    paper = found.structured_content["papers"][0]
    person = next(pid for p in found.structured_content["papers"] for pid in p["author_ids"] if pid)
    calls["get_paper"] = await client.call_tool("get_paper", {"paper_id": paper["id"]})
    calls["similar_papers"] = await client.call_tool("similar_papers", {"paper_id": paper["id"]})
    calls["venue_stats"] = await client.call_tool("venue_stats", {"slug": paper["conference"], "year": paper["year"]})
    whole = calls["get_paper"].structured_content
    first = whole["authors"][0]
    preprint = (f"@article{{mine, title={{{whole['title']}}}, author={{{first['name'] if isinstance(first, dict) else first}}},"
                f" journal={{arXiv preprint arXiv:2001.00001}}, year={{{whole['year'] - 1}}}}}")
    calls["upgrade_bibtex"] = await client.call_tool("upgrade_bibtex", {"bibtex": preprint})
    calls["get_person"] = await client.call_tool("get_person", {"person_id": person, "page_size": 3})
    name = calls["get_person"].structured_content["person"]["name"]
    calls["find_people"] = await client.call_tool("find_people", {"name": name})
    calls["bad"] = [await client.call_tool("search_papers", {"page": 0}),
                    await client.call_tool("search_papers", {"venue": "iclr"}),
                    await client.call_tool("get_paper", {"paper_id": "no-such-paper"})]
    calls["after"] = await client.call_tool("search_papers", {"q": "learning", "page_size": 1})  # still serving
    return calls


def _check(calls: dict, public_url: str) -> None:
    assert calls["listed"] == NAMES
    for name in NAMES:
        assert not calls[name].is_error, (name, calls[name].content)
        assert json.loads(calls[name].content[0].text) == calls[name].structured_content, name
    found = calls["search_papers"].structured_content
    assert found["total"] > 0 and len(found["papers"]) == 5
    assert all(p["url"] == f"{public_url}/papers/{p['id']}" and len(p["abstract"]) <= 300 for p in found["papers"])
    paper = calls["get_paper"].structured_content
    assert paper["id"] == found["papers"][0]["id"] and paper["bibtex"].startswith("@")
    assert calls["similar_papers"].structured_content["papers"]
    assert calls["venue_stats"].structured_content["papers"] > 0
    person = calls["get_person"].structured_content
    assert person["total"] > 0 and 0 < len(person["papers"]) <= 3
    assert person["id"] in [p["id"] for p in calls["find_people"].structured_content["people"]]
    upgraded = calls["upgrade_bibtex"].structured_content
    assert upgraded["counts"]["upgraded"] == 1 and upgraded["entries"][0]["paper"]["id"] == paper["id"]
    assert upgraded["bibtex"].startswith("@") and "{mine," in upgraded["bibtex"] and "arXiv" not in upgraded["bibtex"]
    assert [r.is_error for r in calls["bad"]] == [True, True, True]
    assert "page: must be between 1" in calls["bad"][0].content[0].text
    assert "venue" in calls["bad"][1].content[0].text and "No paper with id" in calls["bad"][2].content[0].text
    assert not calls["after"].is_error


def test_stdio_paperlist_mcp_answers_every_tool(web_settings):
    env = {**os.environ, "ES_URL": web_settings.es_url, "REDIS_URL": web_settings.redis_url,
           "PAPERLIST_INDEX": web_settings.index, "PAPERLIST_SEARCH_BUDGET": "10", "PAPERLIST_FACETS_BUDGET": "5",
           "PAPERLIST_PUBLIC_URL": "https://papers.example.org"}
    server = StdioServerParameters(command=sys.executable, args=["-m", "services.cli", "mcp"], env=env,
                                   cwd=str(PROJECT_ROOT))

    async def run():
        async with Client(server) as client:
            return await _every_tool(client)

    _check(anyio.run(run), "https://papers.example.org")


@pytest.fixture(scope="module")
def front(settings, web_settings):
    """The front as `paperlist up` starts it, over the sample: nginx, gunicorn and the MCP server's uvicorn.
    127.0.0.1 alone is exempt from the limits (the default), so a client on 127.0.0.3 is limited."""
    with running_front(settings, web_settings.index, PAPERLIST_SEARCH_BUDGET="10", PAPERLIST_FACETS_BUDGET="5",
                       PAPERLIST_MCP_WORKERS="2") as stack:
        yield stack
    assert not stack.mcp.pid(), "down must stop the MCP server too"


def test_streamable_http_through_nginx_answers_every_tool(front):
    async def run():
        async with Client(f"{front.url}/mcp") as client:
            return await _every_tool(client)

    _check(anyio.run(run), front.settings.public_url)
    assert front.mcp.pid() and front.nginx.mcp_socket.is_socket()


def _post(front, source: str = "127.0.0.1") -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", front.settings.port, timeout=30, source_address=(source, 0))
    try:
        conn.request("POST", "/mcp", body=json.dumps(INITIALIZE), headers=MCP_HEADERS)
        resp = conn.getresponse()
        return resp.status, dict(resp.getheaders()), resp.read()
    finally:
        conn.close()


def test_a_stateless_call_without_a_session_is_answered_in_json_by_any_process(front):
    """No session to open first (stateless): a bare tools/list is answered, in JSON, never kept by the edge."""
    answers = [_post(front) for _ in range(6)]
    for status, headers, body in answers:
        assert status == 200 and headers["Content-Type"].startswith("application/json"), (status, headers, body)
        assert headers["X-Cache-Edge"] == "BYPASS" and "Mcp-Session-Id" not in headers
        assert [t["name"] for t in json.loads(body)["result"]["tools"]] == NAMES


def _held_stream(front, source: str) -> tuple[http.client.HTTPConnection, int]:
    """A GET of /mcp from ``source``: the server's message stream, held open (its status line read) until closed."""
    conn = http.client.HTTPConnection("127.0.0.1", front.settings.port, timeout=30, source_address=(source, 0))
    conn.request("GET", "/mcp", headers={"Accept": "text/event-stream"})
    return conn, conn.getresponse().status


def test_mcp_is_limited_per_address_as_the_api_is(front):
    """nginx's zones, per client address: past the connections one address may hold, 127.0.0.3 meets a JSON 429;
    127.0.0.1 (exempt) does not. (Its request rate: the same server-wide limit_req, tests/unit/ops/test_nginx.py.)"""
    held = []
    try:
        for _ in range(40):  # limit_conn paperlist_conn 32
            held.append(_held_stream(front, "127.0.0.3"))
        statuses = [status for _, status in held]
        assert statuses[:8] == [200] * 8 and 429 in statuses, statuses
        status, _, body = _post(front, "127.0.0.3")
        assert status == 429 and json.loads(body)["error"]["code"] == "rate_limited"
        assert _post(front)[0] == 200
    finally:
        for conn, _ in held:
            conn.close()
    again = []  # the streams closed, the address is served again (once nginx has seen them go)
    for _ in range(50):
        again.append(_post(front, "127.0.0.3")[0])
        if again[-1] == 200:
            break
        time.sleep(0.1)
    assert again[-1] == 200, again
