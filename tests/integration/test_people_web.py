"""People against the real stores (the sample ingested into the session's alias, its people pass included): the
reads, the pages and their redirects, the API, the author facet and ``person:``, suggestions.

A retired id is made by writing a successor document into the session alias's own people index, as the people
pass writes one when a merge or a split retires an id.
"""

from __future__ import annotations

import re

import pytest
from fake_reads import conforms

from services.search.engine import people_store
from services.search.records.people import Person, Successor
from services.search.service import PaperSearch

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def people(es, sample_alias) -> list[Person]:
    """The sample's people with listed papers, the most papers first."""
    found = es.search(index=f"{sample_alias}-people", size=2000, query={"term": {"kind": "person"}},
                      sort=[{"papers": "desc"}, {"person_id": "asc"}])["hits"]["hits"]
    out = [p for h in found if isinstance(p := people_store.parse(h["_source"]), Person) and p.papers]
    assert len(out) > 1000, "the people pass ran after the sample's ingest"
    return out


def _block(es, alias: str, name_key: str) -> list[Person]:
    hits = es.search(index=f"{alias}-people", size=500, query={"bool": {"filter": [
        {"term": {"name_key": name_key}}, {"term": {"kind": "person"}}]}})["hits"]["hits"]
    return [people_store.parse(h["_source"]) for h in hits]


@pytest.fixture(scope="module")
def shared(es, sample_alias) -> list[Person]:
    """The people of the largest name block of several people (a name to tell apart), the most papers first."""
    top = es.search(index=f"{sample_alias}-people", size=0, query={"term": {"kind": "person"}},
                    aggs={"k": {"terms": {"field": "name_key", "size": 1}}})["aggregations"]["k"]["buckets"][0]
    assert top["doc_count"] > 1
    return sorted(_block(es, sample_alias, top["key"]), key=lambda p: (-p.papers, p.person_id))


@pytest.fixture(scope="module")
def service(es, sample_alias) -> PaperSearch:
    return PaperSearch(es, sample_alias)


def _listed(client, **params) -> int:
    resp = client.get("/api/v1/search", query_string={"page_size": 1, **params})
    assert resp.status_code == 200, resp.get_json()
    return resp.get_json()["total"]


def test_a_persons_page_read_is_their_listed_papers_newest_first(service, people, client):
    person = people[0]
    page = service.person(person.person_id, 1, 10)
    assert page.person == person and page.total == person.papers and page.hidden == person.hidden
    assert all(person.person_id in p.author_ids for p in page.papers)
    assert [p.year for p in page.papers] == sorted((p.year for p in page.papers), reverse=True)
    assert sum(n for _, n in page.venues) == page.total == _listed(client, author=person.person_id)
    assert service.person("p000000000000") is None


def test_a_names_people_and_people_by_id(service, shared):
    found = service.people_named(shared[0].name.upper())
    assert {p.person_id for p in found} == {p.person_id for p in shared}
    assert [p.papers for p in found] == sorted((p.papers for p in found), reverse=True)
    assert set(service.people([p.person_id for p in shared] + ["p000000000000"])) == {p.person_id for p in shared}


def test_a_name_of_several_people_lists_them_and_a_name_of_one_goes_to_their_page(client, es, sample_alias, shared,
                                                                                 people):
    html = client.get(f"/authors/{shared[0].name}").get_data(as_text=True)
    assert f"{len(shared)} people publish as" in html
    assert {f"/people/{p.person_id}" for p in shared} <= set(re.findall(r'href="(/people/p[0-9a-f]{12})"', html))
    one = next(p for p in people if p.papers >= 2 and len(_block(es, sample_alias, p.name_key)) == 1)
    moved = client.get(f"/authors/{one.name}")
    assert moved.status_code == 302 and moved.headers["Location"] == f"/people/{one.person_id}"
    page = client.get(moved.headers["Location"])
    assert page.status_code == 200 and f"<h1>{one.name}</h1>" in page.get_data(as_text=True)


def test_the_person_api_and_the_people_of_a_name(client, people, shared):
    person = people[0]
    body = client.get(f"/api/v1/people/{person.person_id}", query_string={"page_size": 5}).get_json()
    conforms(body, "PersonPapers")
    assert body["person"]["label"] == person.label and body["total"] == person.papers and len(body["papers"]) == 5
    assert all(person.person_id in p["author_ids"] for p in body["papers"])
    named = client.get("/api/v1/people", query_string={"name": shared[0].name}).get_json()
    conforms(named, "PeopleNamed")
    assert sorted(p["id"] for p in named["people"]) == sorted(p.person_id for p in shared)
    for bad in ("p000000000000", "nope"):
        resp = client.get(f"/api/v1/people/{bad}")
        assert resp.status_code == 404 and resp.get_json()["error"]["code"] == "not_found"
        assert client.get(f"/people/{bad}").status_code == 404


def test_hits_keep_the_author_names_and_add_who_they_are_in_the_same_order(client):
    hits = client.get("/api/v1/search", query_string={"q": "learning", "page_size": 20}).get_json()["hits"]
    assert all(len(h["author_ids"]) == len(h["authors"]) for h in hits)
    assert any(i for h in hits for i in h["author_ids"])


def test_a_retired_id_redirects_on_the_site_and_names_its_successor_on_the_api(client, es, sample_alias, shared):
    merged, split = "p00000000abc1", "p00000000abc2"
    index = f"{sample_alias}-people"
    people_store.write(es, index, [Successor(person_id=merged, change="merged", successors=[shared[0].person_id]),
                                   Successor(person_id=split, change="split",
                                             successors=[p.person_id for p in shared[:2]])])
    try:
        moved = client.get(f"/people/{merged}")
        assert moved.status_code == 301 and moved.headers["Location"] == f"/people/{shared[0].person_id}"
        body = client.get(f"/api/v1/people/{merged}").get_json()
        assert body["person"] is None and body["successor"]["change"] == "merged"
        assert [p["id"] for p in body["successor"]["successors"]] == [shared[0].person_id]
        html = client.get(f"/people/{split}").get_data(as_text=True)
        assert all(f'href="/people/{p.person_id}"' in html for p in shared[:2])
    finally:
        people_store.write(es, index, [], gone=[merged, split])


def test_the_author_facet_counts_people_labelled_and_person_filters_like_it(client, people):
    person = people[0]
    counted = client.get("/api/v1/facets", query_string={"facets": "author"}).get_json()["facets"]["author"]
    labels = {v["value"]: v["label"] for v in counted}
    assert labels[person.person_id] == person.label and all(re.fullmatch(r"p[0-9a-f]{12}", v) for v in labels)
    by_facet = _listed(client, author=person.person_id)
    assert by_facet == person.papers == _listed(client, q=f"person:{person.person_id}")
    assert _listed(client, q=f"person:{person.person_id} -person:{person.person_id}") == 0
    assert _listed(client, q="person:p000000000000") == 0


def test_people_are_suggested_with_their_label_and_page(client, people):
    person = people[0]
    found = client.get("/api/v1/suggest", query_string={"q": person.name.split()[-1]}).get_json()["suggestions"]
    offered = [s for s in found if s["type"] == "person"]
    assert {"text": person.label, "url": f"/people/{person.person_id}"}.items() <= next(
        s for s in offered if s["url"] == f"/people/{person.person_id}").items()


def test_a_persons_feed(client, people):
    import feedparser

    person = people[0]
    feed = feedparser.parse(client.get(f"/people/{person.person_id}.atom").get_data())
    assert feed.bozo == 0 and len(feed.entries) == min(person.papers, 50)
    assert person.label in feed.feed.title
