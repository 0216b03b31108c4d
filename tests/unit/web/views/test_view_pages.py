"""The HTML pages over the in-memory search layer: what each shows, where it redirects, its errors."""

from __future__ import annotations

import re

import pytest
from fake_reads import PAPERS, FakeReads, _paper, fake_app

from services.search.limits import MAX_QUERY


def _html(resp) -> str:
    assert resp.status_code == 200, resp.status_code
    return resp.get_data(as_text=True)


def test_front_page_leads_with_the_newest_conference_year(fake_client):
    html = _html(fake_client.get("/"))
    assert "Graph Neural Networks at Scale" in html and 'href="/conferences/neurips/2024"' in html


def test_a_partial_newest_edition_is_a_preview_on_the_front_page_and_its_year_page(fake_reads):
    from fake_reads import PAPERS, _paper, fake_app

    fake_reads.papers = [*PAPERS, *(_paper(10 + i, f"Complete Paper {i}", "neurips", 2025) for i in range(6)),
                         _paper(20, "An Early Paper", "neurips", 2026)]
    client = fake_app(fake_reads).test_client()
    html = _html(client.get("/"))
    assert re.search(r"Newest: NeurIPS 2025 <span class=\"count\">6 papers", html)
    assert "Complete Paper 0" in html and "An Early Paper" not in html
    assert ('Under way: <a href="/conferences/neurips/2026">NeurIPS 2026</a>, '
            "a preview: 1 of NeurIPS 2026’s papers so far.") in html
    html = _html(client.get("/conferences/neurips/2026"))
    assert "A preview: 1 of NeurIPS 2026’s papers so far" in html and "2026 <span class=\"count so-far\">(1 so far)" in html
    assert "preview" not in _html(client.get("/conferences/neurips/2025"))


def test_a_venue_year_without_review_scores_says_so_and_offers_no_rating_sort(fake_client):
    html = _html(fake_client.get("/conferences/neurips/2024"))
    assert "No histogram of review ratings: the source has no review scores for NeurIPS 2024." in html
    assert re.search(r'class="note source-lacks">The source lists [^<]*no review scores for NeurIPS 2024', html)
    assert '<option value="rating" disabled >By review rating — none for NeurIPS 2024</option>' in html
    # Asked for anyway (a shared link): the list says it is not by rating.
    html = _html(fake_client.get("/conferences/neurips/2024", query_string={"sort": "rating"}))
    assert "None of these papers has review scores (the source has none for NeurIPS 2024)" in html
    # A venue-year with scores: a histogram with its legend, and the sort offered.
    html = _html(fake_client.get("/conferences/iclr/2018"))
    assert '<ul class="legend" aria-hidden="true"><li><span class="swatch seg-poster"></span>Poster</li>' in html
    assert "no review scores" not in html and "No histogram" not in html
    assert '<option value="rating" >By review rating, where known</option>' in html
    assert "sort-note" not in _html(fake_client.get("/conferences/iclr/2018", query_string={"sort": "rating"}))


def test_results_list_the_matches_with_facets_and_a_folded_link_to_their_trends(fake_client, fake_reads):
    html = _html(fake_client.get("/search", query_string={"q": "graph", "page_size": "10", "sort": "newest"}))
    assert "Graph Attention Networks" in html and "Graph Neural Networks at Scale" in html
    assert "Deep Residual Learning" not in html
    assert "A Rejected Graph Paper" not in html  # hidden unless asked for
    # The trends are asked for only when opened: the section links them, of the search whatever its order or size.
    assert fake_reads.called("trends") == 0
    assert '<details class="trends" data-fold-narrow data-trends="/search/trends?q=graph">' in html
    assert '<a href="/search/trends?q=graph" rel="nofollow">Open the trends of these 2 papers</a>' in html
    assert 'href="/search.atom?q=graph"' in html  # the feed of this search


def test_words_that_found_only_hidden_papers_say_so_and_link_them(fake_client):
    html = _html(fake_client.get("/search", query_string={"q": "rejected"}))
    assert 'Only rejected papers match (1) — <a href="/search?q=rejected&amp;status=reject">show them</a>' in html
    assert "No papers match" not in html and "hidden-note" not in html
    html = _html(fake_client.get("/search", query_string={"q": "graph"}))  # beside listed papers: the note
    assert 'class="hidden-note">+ 1 rejected — <a href="/search?q=graph&amp;status=reject">show</a>' in html
    assert "Only rejected" not in html


def test_a_result_found_by_a_name_its_title_does_not_say_says_so(fake_reads):
    named = _paper(9, "A Generalist Agent", "tmlr", 2022, abstract="The agent, which we refer to as Gato, acts.")
    fake_reads.papers = [*PAPERS, named.model_copy(update={"names": ["Gato"]})]
    client = fake_app(fake_reads).test_client()
    assert "Known as <mark>Gato</mark>" in _html(client.get("/search", query_string={"q": "gato"}))
    assert "Known as" not in _html(client.get("/search", query_string={"q": "agent"}))  # not a name of it


def test_an_empty_result_set_has_no_trends_section(fake_client, fake_reads):
    html = _html(fake_client.get("/search", query_string={"q": "nothing-matches-this"}))
    assert fake_reads.called("trends") == 0 and "data-trends" not in html


def test_partial_results_are_json_fragments(fake_client):
    data = fake_client.get("/search", query_string={"q": "graph", "partial": "1"}).get_json()
    assert set(data) == {"results", "facets", "head", "scope", "total"} and data["total"] == 2


@pytest.mark.parametrize("query, location", [
    ({"q": "graph", "page": "9999"}, "/search?q=graph"),   # past the last page: the last one
    ({"q": "graph", "page": "02"}, "/search?q=graph"),     # one page, one URL
])
def test_pages_outside_the_results_redirect(fake_client, query, location):
    resp = fake_client.get("/search", query_string=query)
    assert resp.status_code == 302 and resp.headers["Location"] == location


@pytest.mark.parametrize("page", ["٢", "1_0", "+2", "x"])
def test_a_page_that_is_not_ascii_digits_is_a_400_page(fake_client, page):
    resp = fake_client.get("/search", query_string={"page": page})
    assert resp.status_code == 400 and "<html" in resp.get_data(as_text=True).lower()


def test_a_paper_page_shows_its_details_bibtex_and_neighbours(fake_client):
    html = _html(fake_client.get("/papers/iclr-2018-p1"))
    assert "Graph Attention Networks" in html and "@inproceedings" in html and "Similar papers" in html
    assert 'href="/people/pada000000001">Ada Lovelace</a>' in html  # each author to their person


def test_a_paper_page_has_its_links_under_the_authors_and_marks_versions_of_itself(fake_reads):
    from fake_reads import PAPERS, _paper, fake_app

    journal = _paper(30, "Graph attention networks", "jmlr", 2019, authors=("Ada Lovelace",))
    namesake = _paper(31, "Graph Attention Networks", "icml", 2020, authors=("Someone Else",))
    fake_reads.papers = [*PAPERS, journal, namesake]
    html = _html(fake_app(fake_reads).test_client().get("/papers/iclr-2018-p1"))
    authors, actions = html.index('class="author-list"'), html.index('class="paper-actions"')
    assert authors < actions < html.index('id="abstract-heading"')
    row = html[actions:html.index("</ul>", actions)]
    assert re.findall(r">([^<>]+)</a></li>", row) == ["PDF", "BibTeX"] and 'href="#bibtex-heading"' in row
    similar = html[html.index('id="similar-heading"'):]
    cards = similar.split('<article class="paper-card">')[1:]
    marked = [c for c in cards if "Another version of this paper" in c]
    assert len(marked) == 1 and "JMLR 2019" in marked[0]  # the same title by someone else is not one


def test_a_long_author_list_folds_after_the_first_few(fake_reads):
    from fake_reads import PAPERS, _paper, fake_app
    from services.search.limits import PAPER_AUTHORS_SHOWN

    many = tuple(f"Author {i}" for i in range(PAPER_AUTHORS_SHOWN + 5))
    fake_reads.papers = [*PAPERS, _paper(40, "A Big Collaboration", "icml", 2024, authors=many),
                         _paper(41, "A Slightly Bigger Team", "icml", 2024, authors=many[:PAPER_AUTHORS_SHOWN + 2])]
    client = fake_app(fake_reads).test_client()
    html = _html(client.get("/papers/icml-2024-p40"))
    first = html[:html.index('class="more-authors"')]
    assert f">Author {PAPER_AUTHORS_SHOWN - 1}</a>" in first and f">Author {PAPER_AUTHORS_SHOWN}</a>" not in first
    assert "<summary>and 5 more authors</summary>" in html and ">Author 12</a>" in html
    assert "more-authors" not in _html(client.get("/papers/icml-2024-p41"))  # two more are simply shown


@pytest.mark.parametrize("q, heading", [('"graph attention"', "“graph attention”"), ("graph", "“graph”"),
                                        ('"graph" attention', "“&#34;graph&#34; attention”")])
def test_a_phrase_query_is_quoted_once_in_the_heading(fake_client, q, heading):
    html = _html(fake_client.get("/search", query_string={"q": q}))
    assert f'id="results-heading">{heading}</h1>' in html
    assert f'<span class="for-query"> for {heading}</span>' in html


def test_an_author_page_links_all_the_papers_at_its_top_when_it_lists_only_some(fake_reads):
    from fake_reads import PAPERS, _paper, fake_app
    from services.search.limits import AUTHOR_PAGE_PAPERS

    fake_reads.papers = [*PAPERS, *(_paper(100 + i, f"Paper {i}", "icml", 2024, authors=("Prolific Person",))
                                    for i in range(AUTHOR_PAGE_PAPERS + 3))]
    client = fake_app(fake_reads).test_client()
    html = _html(client.get("/authors/Prolific Person"))
    top = html.index(f'All {AUTHOR_PAGE_PAPERS + 3:,} papers →')
    assert top < html.index('class="profile-grid"') and top < html.index('class="paper-list"')
    assert f"(the newest {AUTHOR_PAGE_PAPERS:,} are listed here)" in html
    assert "All 1 papers" not in _html(client.get("/authors/Kaiming He"))  # a whole list needs no link


def test_an_unknown_paper_is_a_404_page(fake_client):
    resp = fake_client.get("/papers/nope")
    assert resp.status_code == 404 and "No paper with id" in resp.get_data(as_text=True)


def test_conference_pages_and_their_years(fake_client):
    html = _html(fake_client.get("/conferences/iclr"))
    assert "Graph Attention Networks" in html
    year = _html(fake_client.get("/conferences/iclr/2018"))
    assert "ICLR 2018" in year
    missing = fake_client.get("/conferences/iclr/1999")
    assert missing.status_code == 404 and "2018" in missing.get_data(as_text=True)  # the years there are
    assert missing.headers["Cache-Control"] == "public, max-age=0, s-maxage=5"  # browsers keep no 404; the edge briefly
    assert fake_client.get("/conferences/nowhere").status_code == 404


NOTE = re.compile(r'<p class="facet-note source-lacks">(.*?)</p>')


def test_any_search_narrowed_to_one_venue_year_says_what_its_source_lacks_in_the_status_facet(fake_client, fake_reads):
    said = "The source lists no rejections for NeurIPS 2024."
    assert NOTE.findall(_html(fake_client.get("/conferences/neurips/2024"))) == [said]
    assert NOTE.findall(_html(fake_client.get("/search", query_string={"conference": "NeurIPS", "year": "2024",
                                                                       "q": "graph"}))) == [said]
    partial = fake_client.get("/search", query_string={"conference": "neurips", "year": "2024", "partial": "1"})
    assert NOTE.findall(partial.get_json()["facets"]) == [said]  # what app.js swaps in after a facet click
    fake_reads.calls.clear()
    for wider in ({"conference": "neurips"}, {"conference": "neurips", "year": "2021-2024"},
                  {"conference": ["neurips", "iclr"], "year": "2024"}):
        assert not NOTE.findall(_html(fake_client.get("/search", query_string=wider))), wider
    assert fake_reads.called("venue_years") == 0  # nothing asked for a search over several venue-years
    assert not NOTE.findall(_html(fake_client.get("/search", query_string={"conference": "iclr", "year": "2018"})))


@pytest.mark.parametrize("path, query, shown", [
    ("/conferences/neurips/2024", {}, "tier"),  # one year: orals first, then A-Z (what newest means in one year)
    ("/search", {"conference": "tmlr", "year": "2024"}, "title"),  # a journal has no tiers: A-Z
    ("/conferences/neurips", {}, "newest"),
    ("/search", {"q": "graph"}, "relevance"),
    ("/search", {"conference": "iclr", "sort": "title"}, "title"),
])
def test_the_sort_box_names_the_order_the_page_runs_in(path, query, shown):
    journal = _paper(9, "A Journal Article", "tmlr", 2024, status="accept")  # a venue named must have papers
    html = _html(fake_app(FakeReads(papers=(*PAPERS, journal))).test_client().get(path, query_string=query))
    assert re.findall(r'<option value="(\w+)" selected>', html) == [shown]
    assert ('<option value="relevance"' in html) == bool(query.get("q"))


def test_a_browse_page_with_filters_of_its_own_becomes_a_search(fake_client):
    resp = fake_client.get("/conferences/iclr", query_string={"q": "graph"})
    assert resp.status_code == 302 and resp.headers["Location"] == "/search?conference=iclr&q=graph"


def test_topic_and_author_pages(fake_client):
    assert "Graph Attention Networks" in _html(fake_client.get("/topics/graph-learning"))
    assert fake_client.get("/topics/no-such-topic").status_code == 404
    # A name no person holds yet (undecided) is the name's page, as before people.
    assert "Deep Residual Learning" in _html(fake_client.get("/authors/Kaiming He"))
    moved = fake_client.get("/authors/kaiming he")
    assert moved.status_code == 302 and moved.headers["Location"] == "/authors/Kaiming%20He"
    assert fake_client.get("/authors/Nobody At All").status_code == 404


def test_index_pages(fake_client):
    assert 'href="/conferences/cvpr"' in _html(fake_client.get("/conferences"))
    assert 'href="/topics/graph-learning"' in _html(fake_client.get("/topics"))


def test_api_docs_render_the_openapi_document(fake_client):
    html = _html(fake_client.get("/api/docs"))
    assert 'id="search"' in html and "SearchResponse" in html and "https://papers.example.org/api/v1/search" in html
    assert re.search(r"<code>next_search_after</code>.*?string or null", html, re.S)


def test_the_usual_openapi_path_leads_to_the_versioned_document(fake_client):
    moved = fake_client.get("/openapi.json")
    assert moved.status_code == 301 and moved.headers["Location"] == "/api/v1/openapi.json"
    assert fake_client.get(moved.headers["Location"]).get_json()["openapi"].startswith("3.")


class _Correcting:
    """A search layer whose "grpah" matches nothing and is answered by its correction's results."""

    def __init__(self, reads):
        self.reads = reads

    def __getattr__(self, name):
        return getattr(self.reads, name)

    def search(self, req):
        from dataclasses import replace

        if req.q == "grpah" and req.autocorrect:
            results = self.reads.search(replace(req, q="graph"))
            results.corrected_from = "grpah"
            return results
        results = self.reads.search(req)
        if not results.total:
            results.hint = "script" if not req.q.isascii() else None
            results.suggestion = "graph" if req.q == "grpah" else None
        return results


@pytest.fixture
def correcting_client(fake_reads):
    from fake_reads import fake_app

    return fake_app(_Correcting(fake_reads)).test_client()


def test_a_query_that_matched_nothing_shows_its_corrections_results(correcting_client):
    html = _html(correcting_client.get("/search", query_string={"q": "grpah"}))
    assert "Graph Attention Networks" in html
    assert re.search(r"Showing results for <strong>graph</strong> · Search instead for "
                     r'<a href="/search\?autocorrect=0&amp;q=grpah">grpah</a>', html)
    typed = _html(correcting_client.get("/search", query_string={"q": "grpah", "autocorrect": "0"}))
    assert "Showing results for" not in typed and "Did you mean" in typed and "Graph Attention Networks" not in typed


def test_a_query_in_another_script_gets_a_hint_not_a_bare_zero(correcting_client):
    html = _html(correcting_client.get("/search", query_string={"q": "注意力机制"}))
    assert "indexed in English" in html


def test_a_long_paste_is_refused_whole_with_a_way_to_papers_like_it(fake_client, fake_reads):
    text = " ".join(["representation"] * 60)  # 899 characters, more than a search reads
    resp = fake_client.get("/search", query_string={"q": text})
    html = resp.get_data(as_text=True)
    assert resp.status_code == 400 and "899 characters" in html
    form = re.search(r'<form class="like-text" method="post" action="/similar">\s*'
                     r'<input type="hidden" name="text" value="([^"]*)">', html)
    assert form and form.group(1) == text  # the whole text, not cut mid-word
    assert fake_reads.called("search") == 0
    # The box takes what a search reads (a longer paste gets the long-text hint); only a URL made
    # by hand carries more, and its page offers the whole text to "papers like this text".
    assert f'name="q" type="search" value="" maxlength="{MAX_QUERY}"' in _html(fake_client.get("/"))
