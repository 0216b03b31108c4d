"""The map page and its JSON (services/web/views/maps.py) over the in-memory search layer."""

import re

import pytest
from fake_reads import FakeReads, _paper, conforms, fake_app

from services.search.records.venue_maps import MapCluster, MapPoints, VenueMap

TITLES = ["Graph Attention Networks", "Graph Transformers", "Message Passing on Graphs", "Graph Pooling",
          "Diffusion Models for Images", "Score-Based Diffusion", "Latent Diffusion at Scale", "Diffusion Sampling"]
PAPERS = tuple(_paper(n, title, "iclr", 2018) for n, title in enumerate(TITLES, 1))
MAP = VenueMap(
    conference="iclr", year=2018, papers=8, left_out=1,
    points=MapPoints(ids=tuple(p.paper_id for p in PAPERS), titles=tuple(TITLES),
                     x=(0.0, 0.1, 0.15, 0.2, 0.8, 0.85, 0.9, 1.0), y=(0.1, 0.2, 0.15, 0.3, 0.5, 0.55, 0.6, 0.4),
                     cluster=(0, 0, 0, 0, 1, 1, 1, 1)),
    clusters=(MapCluster(0, "graph · message passing", 4, 0.1, 0.2, ("graph", "message passing")),
              MapCluster(1, "diffusion · sampling", 4, 0.85, 0.55, ("diffusion", "sampling"))),
    method="test", computed_at="2026-12-01T00:00:00+00:00")


@pytest.fixture
def reads():
    return FakeReads(papers=PAPERS, maps={("iclr", 2018): MAP})


@pytest.fixture
def client(reads):
    return fake_app(reads, PAPERLIST_MAP_MIN_PAPERS="5").test_client()


def test_the_page_draws_every_paper_as_a_link_to_it_and_names_the_clusters(client):
    page = client.get("/conferences/iclr/2018/map").get_data(as_text=True)
    links = re.findall(r'<a href="(/papers/[^"]+)" tabindex="-1"><circle cx="([\d.]+)%" cy="([\d.]+)%"', page)
    assert sorted(href for href, _, _ in links) == sorted(f"/papers/{p.paper_id}" for p in PAPERS)
    assert all(0 <= float(x) <= 100 and 0 <= float(y) <= 100 for _, x, y in links)
    assert "<title>Graph Pooling</title>" in page
    assert page.count(">graph · message passing</text>") == 1 and ">graph</text>" in page  # a desktop's name, a phone's
    assert "1 without an abstract" in page


def test_the_cluster_list_links_select_a_cluster_and_list_its_papers(client):
    page = client.get("/conferences/iclr/2018/map").get_data(as_text=True)
    hrefs = re.findall(r'<li data-cluster="\d+">.*?<a href="([^"]+)"', page, re.S)
    assert hrefs == ["/conferences/iclr/2018/map?cluster=0#cluster-papers", "/conferences/iclr/2018/map?cluster=1#cluster-papers"]
    chosen = client.get("/conferences/iclr/2018/map?cluster=1").get_data(as_text=True)
    listed = re.findall(r'<li><a href="/papers/[^"]+">([^<]+)</a></li>', chosen.split('id="cluster-papers"')[1])
    assert listed == sorted(TITLES[4:], key=str.lower)
    assert 'class="k' in chosen and " chosen\" data-cluster=\"1\"" in chosen


def test_a_cluster_the_map_lacks_is_a_400(client):
    assert client.get("/conferences/iclr/2018/map?cluster=7").status_code == 400
    assert client.get("/conferences/iclr/2018/map?cluster=x").status_code == 400


def test_a_search_highlights_its_papers_within_the_venue_year(client, reads):
    page = client.get("/conferences/iclr/2018/map?q=diffusion&conference=cvpr").get_data(as_text=True)
    assert len(re.findall(r'<circle [^>]*class="hit"', page)) == 4
    req = next(args[0] for name, args in reads.calls if name == "map_matches")
    assert req.selected("conference") == ("iclr",) and req.q == "diffusion"  # the path's venue-year, not the URL's
    assert "4</strong> papers highlighted" in page and "4 highlighted" in page


def test_the_box_answers_as_you_type_with_the_ids_it_highlights(client):
    answer = client.get("/conferences/iclr/2018/map?q=graph&partial=1").get_json()
    assert answer["total"] == 4 and sorted(answer["ids"]) == sorted(p.paper_id for p in PAPERS[:4])
    assert "highlighted" in answer["summary"]


def test_without_a_search_nothing_is_highlighted_nor_searched(client, reads):
    page = client.get("/conferences/iclr/2018/map").get_data(as_text=True)
    assert 'class="hit"' not in page and reads.called("map_matches") == 0


def test_a_venue_year_without_a_map_is_a_404_that_says_why(reads):
    reads.maps.clear()
    client = fake_app(reads).test_client()
    for url in ("/conferences/iclr/2018/map", "/api/v1/venues/iclr/2018/map"):
        resp = client.get(url)
        assert resp.status_code == 404 and "at least 200 papers" in resp.get_data(as_text=True)
    assert client.get("/conferences/nowhere/2018/map").status_code == 404


def test_the_json_is_the_contracts_and_the_documents(client):
    resp = client.get("/api/v1/venues/ICLR/2018/map")
    data = resp.get_json()
    assert resp.status_code == 200 and "s-maxage" in resp.headers["Cache-Control"]
    assert data["points"][0] == {"id": PAPERS[0].paper_id, "x": 0.0, "y": 0.1, "cluster": 0}
    assert data["clusters"] == [{"id": 0, "label": "graph · message passing", "count": 4},
                                {"id": 1, "label": "diffusion · sampling", "count": 4}]
    assert data["height"] == 0.6 and data["papers"] == 8
    conforms(data, "VenueMap")
    assert client.get("/api/v1/venues/iclr/1800/map").status_code == 400


def test_the_venue_year_page_links_to_its_map_when_it_lists_enough_papers(client):
    page = client.get("/conferences/iclr/2018").get_data(as_text=True)
    assert 'href="/conferences/iclr/2018/map">Map of its papers</a>' in page
    few = fake_app(FakeReads(papers=PAPERS), PAPERLIST_MAP_MIN_PAPERS="9").test_client()
    assert "/map" not in few.get("/conferences/iclr/2018").get_data(as_text=True)


def test_a_search_in_one_venue_year_links_to_its_papers_on_the_map(client):
    page = client.get("/search?q=diffusion&conference=iclr&year=2018").get_data(as_text=True)
    assert 'href="/conferences/iclr/2018/map?q=diffusion">See these papers on the map of ICLR 2018</a>' in page
    across = client.get("/search?q=diffusion&conference=iclr").get_data(as_text=True)
    assert "on the map of" not in across
