"""A person's summary: counted from their places, what tells two people of one name apart (summaries.py)."""

from __future__ import annotations

from services.indexer.corpus.people.summaries import PaperFacts, summaries


def paper(pid: str, year: int, names: tuple[str, ...], affiliations: tuple[str, ...], status: str = "poster",
          conference: str = "iclr", topics: tuple[str, ...] = ("ml",)) -> PaperFacts:
    return PaperFacts(paper_id=pid, title=f"Paper {pid}", conference=conference, year=year, status=status,
                      topics=topics, names=names, affiliations=affiliations, profiles=("~Yang_Liu3", "", ""),
                      orcids=("", "", ""))


def test_two_people_of_one_name_are_summed_up_apart():
    papers = [paper("a", 2019, ("Yang Liu", "Maosong Sun", "Zhiyuan Liu"), ("Tsinghua University", "", "")),
              paper("b", 2021, ("Yang Liu", "Maosong Sun", "Ming Zhou"), ("Tsinghua University", "", ""),
                    conference="acl"),
              paper("c", 2023, ("Yang Liu", "Dilek Hakkani-Tür", "Ming Zhou"), ("Amazon; UCSC", "", ""),
                    status="reject")]
    persons = {("a", 0): "p1", ("b", 0): "p1", ("c", 0): "p2", ("a", 1): "p3", ("b", 1): "p3"}
    by_id = {p.person_id: p for p in summaries(papers, persons)}
    one, two = by_id["p1"], by_id["p2"]
    assert (one.papers, one.hidden, one.first_year, one.last_year) == (2, 0, 2019, 2021)
    assert one.affiliations[0].value == "Tsinghua University" and one.affiliations[0].papers == 2
    assert one.coauthors[0].person_id == "p3" and one.coauthors[0].name == "Maosong Sun" and one.coauthors[0].papers == 2
    assert {c.name for c in one.coauthors} == {"Maosong Sun", "Zhiyuan Liu", "Ming Zhou"}
    assert [v.value for v in one.venues] == ["acl", "iclr"] and one.newest.paper_id == "b"
    assert one.profiles == ["~Yang_Liu3"] and one.label == "Yang Liu · Tsinghua University"
    # Only a rejected paper: counted as hidden, still summed up from it.
    assert (two.papers, two.hidden) == (0, 1)
    assert [a.value for a in two.affiliations] == ["Amazon", "UCSC"]
    assert two.newest.paper_id == "c"


def test_an_operators_display_name_calls_the_person_and_their_coauthors_by_it():
    papers = [paper("a", 2019, ("Yang Liu", "Maosong Sun", "Zhiyuan Liu"), ("Tsinghua University", "", ""))]
    persons = {("a", 0): "p1", ("a", 1): "p3"}
    by_id = {p.person_id: p for p in summaries(papers, persons, {"p1": "Yang Liu (Tsinghua NLP)"})}
    assert by_id["p1"].name == "Yang Liu (Tsinghua NLP)"
    assert by_id["p1"].name_key == "yang liu"        # still one of the name's people
    assert "Yang Liu (Tsinghua NLP)" in {c.name for c in by_id["p3"].coauthors}
    assert by_id["p3"].name == "Maosong Sun"
