"""Which venue paper a cited work is: the body asked of Elasticsearch and the decision over its candidates."""

from __future__ import annotations

from services.search.answers.venue_match import AMBIGUOUS, FOUND, NOT_FOUND, CitedWork, decide, match_body, surname_agrees
from services.search.records.model import Author, Paper


def _paper(n: int, title: str, year: int = 2018, first: str = "Petar Veličković", status: str = "poster",
           conference: str = "iclr") -> Paper:
    return Paper(paper_id=f"p{n}", conference=conference, conference_name=conference.upper(), year=year, title=title,
                 status=status, authors=[Author(name=first), Author(name="Yoshua Bengio")])


GAT = _paper(1, "Graph Attention Networks")


def test_the_whole_title_fits_whatever_its_case_accents_and_punctuation():
    work = CitedWork("graph attention networks", "Velickovic", 2017)
    assert decide(work, [GAT]) == decide(CitedWork("Graph-Attention Networks!", "Veličković", 2018), [GAT])
    assert decide(work, [GAT]).outcome == FOUND and decide(work, [GAT]).paper == GAT


def test_the_surname_and_the_year_are_checked():
    assert decide(CitedWork("Graph Attention Networks", "Smith", 2017), [GAT]).outcome == NOT_FOUND
    assert decide(CitedWork("Graph Attention Networks", "Velickovic", 2019), [GAT]).outcome == NOT_FOUND  # venue first
    assert decide(CitedWork("Graph Attention Networks", "", None), [GAT]).outcome == FOUND  # "others" says nothing


def test_a_title_cut_at_its_colon_needs_the_surname():
    bert = _paper(2, "BERT: Pre-training of Deep Bidirectional Transformers", 2019, "Jacob Devlin", conference="naacl")
    assert decide(CitedWork("BERT", "Devlin", 2018), [bert]).paper == bert
    assert decide(CitedWork("BERT", "", 2018), [bert]).outcome == NOT_FOUND
    assert decide(CitedWork("BERT Pre-training", "Devlin", 2018), [bert]).outcome == NOT_FOUND  # not the colon's part


def test_two_fitting_papers_are_ambiguous_but_a_whole_title_and_the_main_track_win():
    twin = _paper(3, "Graph Attention Networks", 2019, conference="neurips")
    assert decide(CitedWork("Graph Attention Networks", "Velickovic", 2017), [GAT, twin]).outcome == AMBIGUOUS
    workshop = _paper(4, "Graph Attention Networks", 2018, status="workshop", conference="icml")
    assert decide(CitedWork("Graph Attention Networks", "Velickovic", 2017), [GAT, workshop]).paper == GAT
    cut = _paper(5, "Graph Attention Networks: A Survey", 2018)
    assert decide(CitedWork("Graph Attention Networks", "Velickovic", 2017), [cut, GAT]).paper == GAT


def test_surnames_with_particles_and_hyphens_agree():
    maaten = _paper(6, "Visualizing Data using t-SNE", 2008, "Laurens van der Maaten")
    assert surname_agrees("van der Maaten", maaten) and surname_agrees("Maaten", maaten)
    assert surname_agrees("Ben-David", _paper(7, "X", first="Shai Ben-David"))
    assert not surname_agrees("David", _paper(8, "X", first="Shai Ben-Davidson"))


def test_the_bodies_ask_accepted_papers_by_whole_title_then_by_cut_title_and_surname():
    work = CitedWork("Graph Attention Networks", "Veličković", 2017)
    whole = match_body(work)["query"]["bool"]["filter"]
    assert "reject" not in whole[0]["terms"]["status"] and "oral" in whole[0]["terms"]["status"]
    assert whole[1:] == [{"term": {"title_key": "graph attention networks"}}]
    cut = match_body(work, cut=True)["query"]["bool"]["filter"]
    assert cut[1:] == [{"prefix": {"title_key": "graph attention networks "}},
                       {"match": {"authors_folded": {"query": "velickovic", "operator": "and"}}}]
    assert match_body(CitedWork("Graph Attention Networks"), cut=True) is None  # no surname: the whole title only
    assert match_body(CitedWork("!")) is None
