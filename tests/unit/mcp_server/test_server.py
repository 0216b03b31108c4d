"""The MCP server through the SDK's own client, in process, over the fake reads: the tools it lists, each tool's
answer against its published output schema, and every bad argument a tool error (isError), never a crash."""

from __future__ import annotations

import json

import anyio
import jsonschema
import pytest
from fake_people import ADA
from fake_reads import FakeReads, fake_settings
from mcp import Client

from services.mcp_server.server import READ_ONLY, TOOLS, build_server
from services.search.errors import SearchUnavailable
from services.search.limits import BRIEF_ABSTRACT

PUBLIC = "https://papers.example.org"  # fake_settings' PAPERLIST_PUBLIC_URL
NAMES = ["search_papers", "get_paper", "similar_papers", "venue_stats", "find_people", "get_person", "upgrade_bibtex"]
PREPRINT = ("@article{velickovic2017graph, title={Graph {A}ttention {N}etworks}, author={Lovelace, Ada and Turing, Alan},"
            " journal={arXiv preprint arXiv:1710.10903}, note={Mine}, year={2017}}")


def _session(reads, work):
    async def run():
        async with Client(build_server(fake_settings(), reads)) as client:
            return await work(client)
    return anyio.run(run)


def _call(reads, name: str, arguments: dict):
    async def work(client):
        listed = {t.name: t for t in (await client.list_tools()).tools}
        return listed[name], await client.call_tool(name, arguments)
    return _session(reads, work)


def test_the_tools_are_listed_with_the_schemas_of_their_models(fake_reads):
    tools = _session(fake_reads, lambda client: client.list_tools()).tools
    assert [t.name for t in tools] == NAMES
    for tool, spec in zip(tools, TOOLS, strict=True):
        assert tool.input_schema == spec.arguments.model_json_schema(by_alias=True)
        assert tool.output_schema["type"] == "object" and tool.output_schema["title"] == spec.answer.__name__
        assert tool.annotations == READ_ONLY and tool.description


@pytest.mark.parametrize("name, arguments", [
    ("search_papers", {"q": "graph", "year": "2018"}),
    ("search_papers", {"conference": ["neurips"], "sort": "newest", "page_size": 1}),
    ("get_paper", {"paper_id": "iclr-2018-p1"}),
    ("similar_papers", {"paper_id": "iclr-2018-p1"}),
    ("venue_stats", {"slug": "ICLR", "year": 2018}),
    ("find_people", {"name": "Alan Turing"}),
    ("get_person", {"person_id": ADA, "page_size": 2}),
    ("upgrade_bibtex", {"bibtex": PREPRINT, "keep": "note"}),
])
def test_each_tool_answers_its_output_schema_as_structured_content_and_as_text(fake_reads, name, arguments):
    tool, result = _call(fake_reads, name, arguments)
    assert not result.is_error, result.content
    jsonschema.validate(result.structured_content, tool.output_schema)
    assert json.loads(result.content[0].text) == result.structured_content
    assert "\n" not in result.content[0].text  # compact: an agent reads every character


def test_a_search_answers_compact_papers_with_their_pages_on_the_site(fake_reads):
    _, result = _call(fake_reads, "search_papers", {"q": "graph", "conference": "iclr"})
    answer = result.structured_content
    assert answer["total"] == 1 and answer["query"] == {"q": "graph", "filters": {"conference": ["iclr"]},
                                                        "sort": "relevance"}
    (paper,) = answer["papers"]
    assert set(paper) == {"id", "title", "authors", "author_ids", "conference", "conference_name", "year", "status",
                          "track", "url", "abstract"}
    assert paper["url"] == f"{PUBLIC}/papers/iclr-2018-p1"
    assert paper["abstract"] == "Attention over graph neighbourhoods."
    (searched,) = [args[0] for name, args in fake_reads.calls if name == "search"]
    assert searched.counted == ()  # no facet counts: an agent reads the hits


def test_long_abstracts_are_cut_and_one_paper_is_whole():
    from fake_reads import PAPERS

    long = PAPERS[0].model_copy(update={"abstract": "attention " * 200})
    reads = FakeReads(papers=(long, *PAPERS[1:]))
    _, listed = _call(reads, "search_papers", {"q": "graph attention"})
    assert len(listed.structured_content["papers"][0]["abstract"]) <= BRIEF_ABSTRACT
    _, whole = _call(reads, "get_paper", {"paper_id": long.paper_id})
    assert whole.structured_content["abstract"] == long.abstract and "@" in whole.structured_content["bibtex"]


def test_a_person_answers_with_their_papers_as_briefs(fake_reads):
    _, result = _call(fake_reads, "get_person", {"person_id": ADA, "page_size": 2})
    answer = result.structured_content
    assert answer["person"]["url"] == f"{PUBLIC}/people/{ADA}" and answer["page_size"] == 2
    assert len(answer["papers"]) == 2 and all("abstract" in p and "topics" not in p for p in answer["papers"])


def test_a_names_people_are_told_apart_compactly(fake_reads):
    _, result = _call(fake_reads, "find_people", {"name": "alan turing"})
    people = result.structured_content["people"]
    assert [p["label"] for p in people] == ["Alan Turing · University of Manchester", "Alan Turing · Bletchley Park"]
    assert all(p["url"] == f"{PUBLIC}/people/{p['id']}" and "coauthors" not in p for p in people)


@pytest.mark.parametrize("name, arguments, says", [
    ("search_papers", {"venue": "iclr"}, "venue"),
    ("search_papers", {"page": "two"}, "page"),
    ("search_papers", {"page": 0}, "page: must be between 1 and 10,000"),
    ("search_papers", {"page_size": 1000}, "page_size: must be between 1 and 100"),
    ("search_papers", {"sort": "bogus"}, "sort: 'bogus' is not one of relevance"),
    ("search_papers", {"year": "last year"}, "year"),
    ("search_papers", {"q": "x" * 501}, "q: the query is 501 characters"),
    ("search_papers", {"conference": "nosuch"}, "conference: no papers from 'nosuch' here"),
    ("get_paper", {}, "paper_id"),
    ("get_paper", {"paper_id": "nope"}, "No paper with id 'nope'."),
    ("similar_papers", {"paper_id": "nope"}, "No paper with id 'nope'."),
    ("venue_stats", {"slug": "iclr", "year": 1800}, "year: must be between 1900 and 2100"),
    ("venue_stats", {"slug": "iclr", "year": 2030}, "No records of ICLR 2030."),
    ("get_person", {"person_id": "ada"}, "person_id: 'ada' is not a person id"),
    ("get_person", {"person_id": "p000000000bad"}, "No person with the id 'p000000000bad'."),
    ("get_person", {"person_id": ADA, "page": 0}, "page: "),
    ("find_people", {"name": "x" * 500}, "name: at most"),
    ("upgrade_bibtex", {"bibtex": "just some words"}, "This is not BibTeX: no entry such as"),
    ("upgrade_bibtex", {"bibtex": PREPRINT, "keep": "no/te"}, "keep: "),
    ("no_such_tool", {}, "no_such_tool"),
])
def test_a_bad_argument_is_a_tool_error_that_says_why(fake_reads, name, arguments, says):
    async def work(client):
        return await client.call_tool(name, arguments)

    result = _session(fake_reads, work)
    assert result.is_error and says in result.content[0].text, result.content


def test_the_search_layer_down_is_a_tool_error_to_retry(fake_reads, monkeypatch):
    def down(*args, **kwargs):
        raise SearchUnavailable("connection refused by 10.0.0.3:9200")

    monkeypatch.setattr(fake_reads, "search", down)
    _, result = _call(fake_reads, "search_papers", {"q": "graph"})
    assert result.is_error and result.content[0].text.endswith(SearchUnavailable.message)
    assert "10.0.0.3" not in result.content[0].text  # Elasticsearch's own text stays in the log


def test_a_preprint_is_upgraded_to_its_venue_entry_keeping_the_key_and_the_fields_asked_for(fake_reads):
    _, result = _call(fake_reads, "upgrade_bibtex", {"bibtex": PREPRINT, "keep": "note"})
    report = result.structured_content
    assert report["counts"]["upgraded"] == 1 and report["entries"][0]["paper"]["id"] == "iclr-2018-p1"
    assert report["entries"][0]["paper"]["url"] == f"{PUBLIC}/papers/iclr-2018-p1"
    assert "@inproceedings{velickovic2017graph," in report["bibtex"] and "Mine" in report["bibtex"]
    assert "arXiv" not in report["bibtex"]
