"""Author page figures from search results: canonical spelling, merged co-authors, shared names, and
versions of one work."""

from __future__ import annotations

from services.search.answers.authors import looks_shared, merged_coauthors, same_work, spellings
from services.search.records.documents import to_document
from services.search.records.model import Author, Paper


def test_spellings_of_a_key_most_frequent_first():
    counts = [("Samy Bengio", 40), ("Yoshua Bengió", 1), ("Yoshua Bengio", 30), ("YOSHUA BENGIO", 2)]
    assert spellings("yoshua bengio", counts) == [("Yoshua Bengio", 30), ("YOSHUA BENGIO", 2), ("Yoshua Bengió", 1)]
    assert spellings("remi munos", [("Rémi Munos", 9), ("Remi Munos", 3)]) == [("Rémi Munos", 9), ("Remi Munos", 3)]
    assert spellings("nobody", counts) == []


def test_coauthor_spellings_merge_into_the_most_frequent():
    counts = [("Yoshua Bengio", 30), ("Aaron Courville", 9), ("Ian Goodfellow", 8), ("Aaron C. Courville", 3)]
    assert merged_coauthors("Yoshua Bengio", counts, limit=20) == [("Aaron Courville", 12), ("Ian Goodfellow", 8)]
    assert merged_coauthors("Yoshua Bengio", counts, limit=1) == [("Aaron Courville", 12)]


def test_the_author_is_not_their_own_coauthor_in_any_spelling():
    counts = [("Aaron Courville", 9), ("Aaron C. Courville", 3), ("Yoshua Bengio", 2)]
    assert merged_coauthors("Aaron Courville", counts, limit=20) == [("Yoshua Bengio", 2)]


def _paper(i: int, name: str, coauthors: list[str], aff: str = "") -> Paper:
    authors = [Author(name=name, affiliation=aff), *(Author(name=c) for c in coauthors)]
    return Paper(paper_id=f"p{i}", conference="iclr", conference_name="ICLR", year=2024, title=f"T{i}",
                 authors=authors)


def test_one_person_with_a_small_side_group_is_not_shared():
    papers = [_paper(i, "Ada Lovelace", ["Charles Babbage", f"Student {chr(65 + i)}"]) for i in range(12)]
    papers += [_paper(100, "Ada Lovelace", ["Someone Else"]), _paper(101, "Ada Lovelace", ["Someone Else"])]
    assert not looks_shared("Ada Lovelace", papers)


def test_two_large_unconnected_groups_make_a_shared_name():
    group_a = [_paper(i, "Wei Wang", ["Li Na"], aff="Tsinghua University") for i in range(8)]
    group_b = [_paper(50 + i, "Wei Wang", ["John Smith"], aff="University of Sydney") for i in range(6)]
    assert looks_shared("Wei Wang", group_a + group_b)
    # One paper with both affiliations joins the groups: then it may be one person who moved.
    bridge = _paper(99, "Wei Wang", [], aff="Tsinghua University; University of Sydney")
    assert not looks_shared("Wei Wang", group_a + group_b + [bridge])


def test_documents_carry_one_author_key_per_name():
    paper = Paper(paper_id="p", conference="iclr", conference_name="ICLR", year=2024, title="T",
                  authors=[Author(name="Petar Veličković"), Author(name="Yoshua Bengio")])
    assert to_document(paper)["author_keys"] == ["petar velickovic", "yoshua bengio"]


def _record(paper_id: str, title: str, *authors: str) -> Paper:
    conference, year, _ = paper_id.split("-", 2)
    return Paper(paper_id=paper_id, conference=conference, conference_name=conference.upper(), year=int(year),
                 title=title, authors=[Author(name=a) for a in authors])


def test_versions_of_one_work_share_a_normalised_title_and_an_author():
    colt = _record("colt-2022-a", "Optimal Rates for Bandits: A Note", "Jane Q. Doe", "Ann Lee")
    jmlr = _record("jmlr-2024-b", "Optimal rates for bandits — a note.", "Jane Doe", "Bo Chen")  # case, dash, initial
    assert same_work(colt, jmlr) and same_work(jmlr, colt)
    # The same title by other people is another paper; another title by the same people too.
    assert not same_work(colt, _record("iclr-2023-c", "Optimal Rates for Bandits: A Note", "Someone Else"))
    assert not same_work(colt, _record("jmlr-2024-d", "Optimal Rates for Bandits", "Jane Doe"))
    assert not same_work(colt, colt)  # a paper is not a version of itself
    assert not same_work(_record("x-2020-e", "", "A B"), _record("y-2021-f", "", "A B"))  # no title, no claim
