"""Anchored assignment (services/indexer/corpus/people/anchor.py): slots join a profile's person by their evidence
against the whole person, and what joins no one clusters apart from every profile."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from services.indexer.corpus.people import Slot, decide
from services.indexer.corpus.people.anchor import NONE, anchor_scores, anchored_distances, anchors_of, assign
from services.indexer.corpus.people.cluster import APART_DISTANCE, distances
from services.indexer.corpus.people.model import default_model, load_model, to_toml
from services.indexer.corpus.people.table import build_table


def slot(paper: str, ids: tuple[str, ...] = (), coauthors: tuple[str, ...] = (), name: str = "Wei Wang",
         position: int = 0) -> Slot:
    return Slot(paper_id=paper, position=position, name=name, profile_ids=ids, coauthors=coauthors)


def rows(table, papers: str) -> list[int]:
    return [int(table.row_of[i]) for i, s in enumerate(table.slots) if s.paper_id in papers.split()]


def test_anchors_are_the_slots_linked_to_an_openreview_profile():
    slots = [slot("a", ("~Wei_Wang1",)), slot("b", ("~Wei_Wang1", "orcid:0000-0002-1825-0097")),
             slot("c", ("orcid:0000-0002-1825-0097",)), slot("d", ("orcid:0000-0001-5109-3700",)), slot("e")]
    table = build_table(slots)
    anchor = anchors_of(table)
    a, b, c, d, e = (int(table.row_of[i]) for i in range(5))
    assert anchor[a] == anchor[b] == anchor[c] == min(a, b, c)   # c through the ORCID it shares with b
    assert anchor[d] == NONE and anchor[e] == NONE                # an ORCID alone anchors no one


def two_anchors_and_two_free():
    """Profiles 1 (papers a, b) and 2 (paper c); free slots x and y."""
    slots = [slot("a", ("~Wei_Wang1",)), slot("b", ("~Wei_Wang1",)), slot("c", ("~Wei_Wang2",)), slot("x"), slot("y")]
    return slots, build_table(slots)


def probabilities(table, given: dict[tuple[str, str], float]) -> np.ndarray:
    p = np.full(len(table.left), 0.1, np.float32)
    for (one, other), value in given.items():
        p[table.pair_index(rows(table, one)[0], rows(table, other)[0])] = value
    return p


def test_a_slot_joins_the_anchor_it_matches_as_a_whole_and_not_one_it_matches_in_one_pair():
    slots, table = two_anchors_and_two_free()
    # x matches both slots of profile 1 fairly, and profile 2's one slot a little better than either
    p = probabilities(table, {("x", "a"): 0.8, ("x", "b"): 0.8, ("x", "c"): 0.7, ("y", "a"): 0.95, ("y", "b"): 0.05})
    anchor = anchors_of(table)
    scores = anchor_scores(table, p, distances(table, p) >= APART_DISTANCE, anchor)
    joined = assign(scores, len(anchor), 0.6)
    (x,), (y,), (a,) = rows(table, "x"), rows(table, "y"), rows(table, "a")
    assert joined[x] == anchor[a]
    assert joined[y] == NONE          # one strong pair, one weak: a mean of 0.5 under the threshold
    assert assign(scores, len(anchor), 0.6, "top")[y] == NONE   # top-3 of two pairs is their mean too
    assert (joined[rows(table, "a b c")] == NONE).all()         # anchored slots are never assigned


def test_a_slot_is_never_assigned_to_a_person_of_its_own_paper():
    slots = [slot("a", ("~Wei_Wang1",)), slot("a", (), name="Wei Wang", position=1)]
    table = build_table(slots)
    p = np.full(len(table.left), 0.99, np.float32)
    anchor = anchors_of(table)
    scores = anchor_scores(table, p, distances(table, p) >= APART_DISTANCE, anchor)
    assert (assign(scores, len(anchor), 0.5) == NONE).all()


def test_anchored_distances_fix_the_assignment_and_keep_the_rest_apart_from_every_profile():
    slots, table = two_anchors_and_two_free()
    p = np.full(len(table.left), 0.9, np.float32)
    anchor = anchors_of(table)
    (a,), (b,), (c,), (x,), (y,) = (rows(table, k) for k in "abcxy")
    joined = np.full(len(anchor), NONE)
    joined[x] = anchor[a]
    d = anchored_distances(table, distances(table, p), anchor, joined)
    at = lambda i, j: d[table.pair_index(i, j)]  # noqa: E731
    assert at(x, a) == at(x, b) == 0.0
    assert at(x, c) == APART_DISTANCE
    assert at(y, a) == at(y, c) == at(y, x) == APART_DISTANCE
    loose = anchored_distances(table, distances(table, p), anchor, joined, rest_apart=False)
    assert loose[table.pair_index(y, a)] < 1.0


def test_the_model_reads_and_writes_its_assign_threshold(tmp_path):
    model = replace(default_model(), assign=0.55)
    path = tmp_path / "weights.toml"
    path.write_text(to_toml(model), encoding="utf-8")
    assert load_model(path).assign == 0.55
    path.write_text(to_toml(replace(model, assign=None)), encoding="utf-8")
    assert load_model(path).assign is None


def test_decide_with_anchoring_joins_each_profile_holders_papers_to_their_profile():
    slots = [Slot(paper_id=f"nlp-{k}", position=0, name="Wei Wang", year=2018 + k, venue="acl",
                  affiliation="Tsinghua University", coauthors=("Maosong Sun", "Zhiyuan Liu"),
                  profile_ids=("~Wei_Wang1",) if k == 0 else ()) for k in range(3)]
    slots += [Slot(paper_id=f"rob-{k}", position=0, name="Wei Wang", year=2018 + k, venue="icra",
                   affiliation="TU Delft", coauthors=("Pieter Quist", "Anouk Van Der Berg"),
                   profile_ids=("~Wei_Wang2",) if k == 0 else ()) for k in range(3)]
    decision = decide(slots, None, replace(default_model(), assign=0.8))
    person = dict(zip((s.paper_id for s in slots), decision.persons, strict=True))
    assert person["nlp-0"] == person["nlp-1"] == person["nlp-2"]
    assert person["rob-0"] == person["rob-1"] == person["rob-2"] != person["nlp-0"]
