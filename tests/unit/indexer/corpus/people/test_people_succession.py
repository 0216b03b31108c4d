"""Person ids outlive new papers: each person keeps the id its places held in the last run (succession.py)."""

from __future__ import annotations

from services.indexer.corpus.people.ids import person_ids, redirects
from services.indexer.corpus.people.slots import Slot
from services.indexer.corpus.people.succession import stable_ids


def slot(paper: str, year: int, position: int = 0) -> Slot:
    return Slot(paper_id=paper, position=position, name="Ada Quist", year=year, venue="iclr")


def keyed(slots, ids):
    return {s.key: i for s, i in zip(slots, ids)}


def test_an_older_paper_that_joins_a_person_does_not_rename_them():
    slots = [slot("b", 2019), slot("c", 2021)]
    before = keyed(slots, person_ids(slots, [0, 0]))
    grown = [slot("a", 2010), *slots]  # an older venue-year ingested later: the earliest place changes
    derived = person_ids(grown, [0, 0, 0])
    assert derived[0] != before[("b", 0)]  # named from its places alone, the person would change address
    assert stable_ids(grown, [0, 0, 0], derived, before) == [before[("b", 0)]] * 3


def test_a_split_leaves_the_id_to_the_part_holding_more_of_its_places_and_the_other_is_redirected():
    slots = [slot("a", 2018), slot("b", 2019), slot("c", 2020)]
    before = keyed(slots, ["p-old"] * 3)
    clusters = [0, 0, 1]
    after = stable_ids(slots, clusters, person_ids(slots, clusters), before)
    assert after[:2] == ["p-old", "p-old"] and after[2] != "p-old"
    assert redirects(before, keyed(slots, after)) == {}  # the id still names someone: nothing to redirect


def test_a_merge_keeps_the_id_with_more_places_and_retires_the_other():
    slots = [slot("a", 2018), slot("b", 2019), slot("c", 2020)]
    before = keyed(slots, ["p-big", "p-big", "p-small"])
    after = stable_ids(slots, [0, 0, 0], person_ids(slots, [0, 0, 0]), before)
    assert after == ["p-big"] * 3
    assert redirects(before, keyed(slots, after)) == {"p-small": ("p-big",)}


def test_a_derived_id_another_person_kept_is_derived_again():
    slots = [slot("a", 2018), slot("b", 2019)]
    derived = person_ids(slots, [0, 1])
    before = {("a", 0): derived[1]}  # the id the second person would derive is the first one's from the last run
    after = stable_ids(slots, [0, 1], derived, before)
    assert after[0] == derived[1] and after[1] != derived[1] and after[1].startswith("p")
