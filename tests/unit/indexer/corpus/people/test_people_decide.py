"""The people decision (services/indexer/people) on tiny hand-made slot sets: homonyms, spellings, profile ids."""

from __future__ import annotations

import numpy as np

from services.indexer.corpus.people import Slot, decide
from services.indexer.corpus.people.names import block_key, middle_conflict

DIMS = 8


def _vectors(*directions: int) -> np.ndarray:
    """One unit vector per paper, along the axis given (papers of one axis are one topic)."""
    out = np.zeros((len(directions), DIMS), np.float32)
    out[np.arange(len(directions)), directions] = 1.0
    return out


def slot(paper: str, name: str, coauthors: tuple[str, ...], *, position: int = 0, year: int = 2020,
         venue: str = "iclr", affiliation: str = "", ids: tuple[str, ...] = (), vector: int = -1) -> Slot:
    return Slot(paper_id=paper, position=position, name=name, year=year, venue=venue, affiliation=affiliation,
                profile_ids=ids, coauthors=coauthors, vector=vector)


def two_wei_wangs() -> tuple[list[Slot], np.ndarray]:
    """Two Wei Wangs: one publishes with Maosong Sun at Tsinghua, the other with Pieter Quist at Delft; one paper
    of each carries its author's profile, the other papers none."""
    nlp = ("Maosong Sun", "Zhiyuan Liu")
    robots = ("Pieter Quist", "Anouk Van Der Berg")
    slots = [slot(f"nlp-{k}", "Wei Wang", nlp, year=2018 + k, venue="acl", affiliation="Tsinghua University",
                  vector=k, ids=("~Wei_Wang1",) if k == 0 else ()) for k in range(3)]
    slots += [slot(f"rob-{k}", "Wei Wang", robots, year=2018 + k, venue="icra", affiliation="TU Delft",
                   vector=3 + k, ids=("~Wei_Wang2",) if k == 0 else ()) for k in range(3)]
    return slots, _vectors(0, 0, 0, 1, 1, 1)


def persons_of(decision, prefix: str) -> set[str]:
    return {p for s, p in zip(decision.slots, decision.persons) if s.paper_id.startswith(prefix)}


def test_two_people_of_one_name_are_kept_apart_by_their_coauthors():
    slots, vectors = two_wei_wangs()
    decision = decide(slots, vectors)
    assert len(persons_of(decision, "nlp")) == 1
    assert len(persons_of(decision, "rob")) == 1
    assert persons_of(decision, "nlp") != persons_of(decision, "rob")


def test_one_person_written_two_ways_is_one_person():
    coauthors = ("Paris Perdikaris", "George Karniadakis")
    slots = [slot("a", "Jian-Xun Wang", coauthors, affiliation="Notre Dame", vector=0),
             slot("b", "Jianxun Wang", coauthors, affiliation="Notre Dame", vector=1),
             slot("c", "Jian-Xun  Wang", coauthors[:1], vector=2)]
    decision = decide(slots, _vectors(2, 2, 2))
    assert len(set(decision.persons)) == 1


def test_name_keys_fold_hyphens_and_middle_initials_but_not_a_bare_initial():
    assert block_key("Jian-Xun Wang") == block_key("Jianxun Wang") == "jianxun wang"
    assert block_key("Tommi S. Jaakkola") == block_key("Tommi Jaakkola")
    assert block_key("Y. Liu") != block_key("Yang Liu")
    assert middle_conflict("Yang A. Liu", "Yang B. Liu") and not middle_conflict("Yang A. Liu", "Yang Liu")


def test_profile_ids_join_for_certain_and_keep_two_profiles_apart():
    shared = ("Alice Smith", "Bob Jones")
    slots = [slot("a", "Wei Wang", shared, ids=("~Wei_Wang1",), vector=0),
             slot("b", "Wei Wang", shared, ids=("~Wei_Wang2",), vector=0),      # same evidence, another profile
             slot("c", "Wei Wang", ("Carol King",), ids=("~Wei_Wang1",), vector=1, venue="cvpr", year=2010)]
    decision = decide(slots, _vectors(0, 1))
    assert decision.persons[0] == decision.persons[2]
    assert decision.persons[0] != decision.persons[1]


def test_an_id_list_shifted_against_its_names_links_nobody():
    from services.indexer.corpus.people.slots import credible

    assert credible("Zhitao Ying", "~Zhitao_Ying1") and credible("Rex Ying", "~Zhitao_Ying1")
    assert not credible("Sai Rajeswar", "~Yoshua_Bengio1")


def test_two_slots_of_one_paper_are_two_people():
    slots = [slot("a", "Wei Wang", ("Wei W. Wang",), position=0), slot("a", "Wei W. Wang", ("Wei Wang",), position=1)]
    decision = decide(slots)
    assert decision.persons[0] != decision.persons[1]


def test_explain_gives_the_evidence_and_the_score():
    from services.indexer.corpus.people.explain import explain

    slots, vectors = two_wei_wangs()
    decision = decide(slots, vectors)
    joined = explain(decision, ("nlp-1", 0), ("nlp-2", 0), vectors)
    assert joined.same_person and joined.features["coauthor_n"] == 2 and joined.features["aff_same"] == 1
    assert joined.probability > 0.5 and "clustering" in joined.reason
    assert sum(joined.contributions.values()) + joined.intercept > 0
    apart = explain(decision, ("nlp-0", 0), ("rob-0", 0), vectors)
    assert not apart.same_person and apart.probability < joined.probability
    assert "coauthor_idf" in apart.to_text()


def test_a_corpus_without_authors_decides_no_person():
    # an ingest of papers that list no author (a withdrawn year, a bare list) runs the pass over no slot
    decision = decide([])
    assert decision.persons == [] and decision.by_person() == {}


def test_one_slot_is_one_person():
    decision = decide([slot("p1", "Ann Lee", ())])
    assert len(decision.persons) == 1 and decision.persons[0].startswith("p")
