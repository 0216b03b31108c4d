"""The names a paper is known by, end to end: ingest, the corpus pass, search, suggestions, pages, authors.

A small made-up field in the paperlists format (nothing here is the real papers): papers
before 2017, a 2017 paper that never writes its nickname, another that coins one, and later
papers that define and use both. Through the real worker, Elasticsearch and the app.
"""

from __future__ import annotations

import json
import uuid

import pytest

from conftest import _test_settings
from services.search.records.paper_names import name_key

pytestmark = pytest.mark.integration

FILLER = "We study learning with neural networks on several benchmarks and report results."
MAML = "Model-Agnostic Meta-Learning for Fast Adaptation of Deep Networks"
SAGE = "Inductive Representation Learning on Large Graphs"


def record(i: int, title: str, abstract: str = FILLER, authors: str = "Ada Lovelace; Charles Babbage") -> dict:
    return {"id": f"r{i}", "title": title, "abstract": abstract, "author": authors, "status": "Poster"}


def field() -> dict[int, list[dict]]:
    """Records by year (conference "namesconf"): the same shape as the unit test of the pass, in files."""
    years: dict[int, list[dict]] = {y: [] for y in range(2014, 2023)}
    for i in range(30):
        years[2014 + i % 3].append(record(i, f"A Study of Learning Number {i}"))
    years[2017] += [
        record(100, MAML, "We propose an algorithm for meta-learning that is compatible with any model.",
               "Chelsea Finn; Pieter Abbeel; Sergey Levine"),
        record(101, SAGE, "Here we present GraphSAGE, a general, inductive framework for node embeddings.",
               "Will Hamilton; Rex Ying; Jure Leskovec"),
        record(102, "Kernel Methods Revisited", FILLER, "Bernhard Schölkopf; Alex Smola"),
    ]
    for i in range(30):
        years[2018 + i % 5].append(record(
            200 + i, f"Fast Adaptation Follow-up {i}",
            "We build on model-agnostic meta-learning (MAML) and compare with GraphSAGE on graphs of MAML tasks.",
            "Bernhard Scholkopf; Grace Hopper" if i == 0 else "Grace Hopper; Alan Turing"))
    return years


@pytest.fixture(scope="module")
def named_alias(settings, celery_app, es, redis_client, worker, tmp_path_factory):
    from conftest import drop_alias, run_ingest

    folder = tmp_path_factory.mktemp("names") / "namesconf"
    folder.mkdir()
    for year, records in field().items():
        (folder / f"namesconf{year}.json").write_text(json.dumps(records), encoding="utf-8")
    name = f"test-names-{uuid.uuid4().hex[:8]}"
    summary = run_ingest(settings, celery_app, es, redis_client, [folder], name,
                         rejects_dir=tmp_path_factory.mktemp("rejects"))
    assert summary.indexed == 63 and summary.renamed, summary
    again = run_ingest(settings, celery_app, es, redis_client, [folder], name,
                       rejects_dir=tmp_path_factory.mktemp("rejects"))
    assert again.unchanged == 63 and again.indexed == 0 and again.renamed is None  # nothing changed, no pass
    yield name
    drop_alias(es, name)


@pytest.fixture(scope="module")
def names_client(settings, named_alias):
    from services.web.app import create_app

    app = create_app(_test_settings(PAPERLIST_INDEX=named_alias, PAPERLIST_QUEUE=settings.queue,
                                    REDIS_URL=settings.redis_url, PAPERLIST_RATE_LIMIT_ENABLED="false",
                                    PAPERLIST_SEARCH_BUDGET="10", PAPERLIST_CACHE="false"))
    return app.test_client()


def titles(client, q: str, **params) -> list[str]:
    resp = client.get("/api/v1/search", query_string={"q": q, "facets": "", **params})
    assert resp.status_code == 200, resp.get_data(as_text=True)
    return [hit["title"] for hit in resp.get_json()["hits"]]


@pytest.mark.parametrize("q", ["maml", "MAML", "model-agnostic meta-learning"])
def test_a_name_others_give_a_paper_finds_it_first_above_its_followers(names_client, q):
    found = titles(names_client, q, page_size=40)
    assert found[0] == MAML and len(found) > 20  # the 30 follow-ups mention it; they come after


def test_a_name_and_an_author_find_the_paper(names_client):
    assert titles(names_client, "maml finn") == [MAML]


@pytest.mark.parametrize("q", ["graphsage", "GraphSAGE", "graph-sage", "graphsage hamilton"])
def test_a_name_the_abstract_coins_finds_it_first_in_any_spelling(names_client, q):
    assert titles(names_client, q)[0] == SAGE


def test_every_word_must_still_match_somewhere(names_client):
    assert titles(names_client, "maml zebra") == []


def test_the_api_and_the_page_show_the_names(names_client):
    hit = names_client.get("/api/v1/search", query_string={"q": "maml"}).get_json()["hits"][0]
    assert hit["names"] == ["MAML", "model-agnostic meta-learning"]
    assert hit["introduced"] == ["MAML"] and hit["mentions"] == 30  # its lowercase long form is a term, not a name
    page = names_client.get(f"/papers/{hit['id']}").get_data(as_text=True)
    assert "Known as" in page and ">MAML</a>" in page and "introduced MAML here, mentioned in 30 later abstracts" in page
    paper = names_client.get(f"/api/v1/papers/{hit['id']}").get_json()
    assert paper["names"] == hit["names"]


def test_autocomplete_puts_the_named_paper_first_with_its_name(names_client):
    got = names_client.get("/api/v1/suggest", query_string={"q": "maml"}).get_json()["suggestions"]
    first = next(s for s in got if s["type"] == "title")
    assert first["text"] == MAML and first["detail"].startswith("MAML · ")
    sage = next(s for s in names_client.get("/api/v1/suggest", query_string={"q": "graphsa"}).get_json()["suggestions"]
                if s["type"] == "title")
    assert sage["text"] == SAGE


def test_an_author_is_one_person_whatever_the_accents(names_client):
    with_accent = titles(names_client, "author:schölkopf")
    without = titles(names_client, "author:scholkopf")
    assert sorted(with_accent) == sorted(without) and len(without) == 2
    assert sorted(titles(names_client, "scholkopf")) == sorted(without)
    assert sorted(titles(names_client, "", author="Bernhard Scholkopf")) == sorted(without)
    # One person whatever the spelling: both names go to their page, which lists both papers and both spellings.
    pages = {names_client.get(f"/authors/{n}").headers.get("Location") for n in ("Bernhard Scholkopf", "Bernhard Schölkopf")}
    assert len(pages) == 1 and next(iter(pages)).startswith("/people/p")
    page = names_client.get(next(iter(pages))).get_data(as_text=True)
    assert "2 papers" in page and "Also written" in page
    people = [s for s in names_client.get("/api/v1/suggest", query_string={"q": "scholk"}).get_json()[
        "suggestions"] if s["type"] in ("person", "author")]
    assert len(people) == 1 and people[0]["type"] == "person" and people[0]["url"] == next(iter(pages))
    assert people[0]["text"].startswith(("Bernhard Scholkopf", "Bernhard Schölkopf"))


def test_on_the_sample_autocomplete_puts_an_exact_name_or_title_first(client, es, sample_alias):
    """The bundled sample: a paper's name, and a whole title, each suggest that paper first."""
    named = es.search(index=sample_alias, size=20, sort=[{"paper_id": "asc"}], _source=["title", "names"],
                      query={"bool": {"filter": [{"exists": {"field": "name_keys"}}],
                                      "must_not": [{"terms": {"status": ["reject", "withdrawn"]}}]}})["hits"]["hits"]
    checked = 0
    for hit in named:
        name = hit["_source"]["names"][0]
        if es.count(index=sample_alias, query={"term": {"name_keys": name_key(name)}})["count"] != 1:
            continue  # a name two papers bear suggests both; which first is the prior's
        for typed in (name.lower(), hit["_source"]["title"]):
            got = client.get("/api/v1/suggest", query_string={"q": typed[:100]}).get_json()["suggestions"]
            assert next(s for s in got if s["type"] == "title")["url"].endswith(f"/papers/{hit['_id']}"), (typed, got)
        checked += 1
    assert checked >= 5
