"""Stable person ids, redirects after merges and splits, and an operator's overrides (services/indexer/people)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from services.indexer.corpus.people import Slot, decide
from services.indexer.corpus.people.curation import parse_overrides
from services.indexer.corpus.people.ids import person_id, person_ids, redirects


def slot(paper: str, name: str, coauthors: tuple[str, ...] = (), *, position: int = 0, year: int = 2020,
         ids: tuple[str, ...] = (), affiliation: str = "") -> Slot:
    return Slot(paper_id=paper, position=position, name=name, year=year, venue="iclr", affiliation=affiliation,
                profile_ids=ids, coauthors=coauthors)


MILA = ("Aaron Courville", "Pascal Vincent")
DELFT = ("Bo Rensen", "Cas Vermeulen")


def corpus() -> list[Slot]:
    """Two people, each with two papers sharing two co-authors and an affiliation; one has a profile."""
    return [slot("a", "Yoshua Bengio", MILA, year=2014, ids=("~Yoshua_Bengio1",), affiliation="Mila"),
            slot("b", "Yoshua Bengio", MILA, year=2016, affiliation="Mila"),
            slot("c", "Ada Quist", DELFT, year=2019, affiliation="TU Delft"),
            slot("d", "Ada Quist", DELFT, year=2021, affiliation="TU Delft")]


def keyed(decision) -> dict[tuple[str, int], str]:
    return {s.key: p for s, p in zip(decision.slots, decision.persons)}


def test_ids_come_from_the_profile_else_the_earliest_slot():
    slots = corpus()
    decision = decide(slots)
    ids = keyed(decision)
    assert ids[("a", 0)] == ids[("b", 0)] == person_id([slots[1], slots[0]])
    assert ids[("c", 0)] == ids[("d", 0)] == person_id([slots[2]])  # the earliest slot names Ada Quist
    assert decide(list(reversed(slots))).persons == list(reversed(decision.persons))  # order does not matter


def test_an_unrelated_new_paper_changes_no_existing_id():
    before = keyed(decide(corpus()))
    after = keyed(decide(corpus() + [slot("e", "Carl Unrelated", ("Dee Other",), year=2010),
                                     slot("f", "Yoshua Bengio", MILA, year=2018, affiliation="Mila")]))
    assert all(after[key] == pid for key, pid in before.items())


def test_a_merge_redirects_the_id_that_disappears_to_its_successor():
    slots = corpus()
    before = dict(zip((s.key for s in slots), person_ids(slots, [0, 0, 1, 2])))   # Ada Quist split in two
    after = dict(zip((s.key for s in slots), person_ids(slots, [0, 0, 1, 1])))
    assert before[("d", 0)] != before[("c", 0)]
    assert redirects(before, after) == {before[("d", 0)]: (after[("c", 0)],)}


def test_a_split_redirects_an_id_to_every_successor_most_slots_first():
    slots = corpus() + [slot("e", "Ada Quist", year=2022)]
    before = dict(zip((s.key for s in slots), person_ids(slots, [0, 0, 1, 1, 1])))
    # Ada Quist's earliest slot now goes to Bengio's person (say, an override): her id names nobody any more.
    after = dict(zip((s.key for s in slots), person_ids(slots, [0, 0, 0, 1, 2])))
    old = before[("c", 0)]
    assert old not in after.values()
    successors = redirects(before, after)[old]
    assert set(successors) == {after[("c", 0)], after[("d", 0)], after[("e", 0)]}
    assert redirects(after, after) == {}


def test_overrides_split_merge_and_name():
    slots = corpus()
    plain = decide(slots)
    bengio = plain.persons[0]
    overrides = parse_overrides(f'''
        [[split]]
        slots = ["b#0"]
        name = "Another Yoshua Bengio"

        [[merge]]
        slots = ["c#0"]
        persons = ["{bengio}"]

        [[name]]
        slot = "d#0"
        display = "Ada Quist (Delft)"

        [[merge]]
        slots = ["gone#3", "c#0"]
    ''')
    decision = decide(slots, overrides=overrides)
    persons = decision.persons
    assert persons[1] != persons[0]                      # split off
    assert decision.names[persons[1]] == "Another Yoshua Bengio"
    assert persons[0] == persons[2] == persons[3]        # merged: Bengio with both Ada Quist slots
    assert persons[0] == bengio                          # the profile still names the merged person
    assert decision.names[persons[3]] == "Ada Quist (Delft)"
    assert decision.skipped == ("merge: no slot gone#3",)


def test_a_bad_override_file_is_refused():
    with pytest.raises(ValueError):
        parse_overrides('[[split]]\nslots = ["no-position"]\n')
    with pytest.raises(ValueError):
        parse_overrides('[[merge]]\nslots = ["a#0"]\n')
    assert not parse_overrides("")


def test_person_ids_match_the_one_person_form():
    slots = corpus()
    assert person_ids(slots, np.array([3, 3, 5, 5]))[2] == person_id(slots[2:])


@pytest.mark.parametrize("text, says", [
    ('[[split]]\nslots = ["no-position"]\n', "not a slot"),
    ('[[merge]]\nslots = ["a#0"]\n', "at least two"),
    ('[[split]]\nname = "Ann"\n', "lacks its 'slots'"),
    ('[[name]]\ndisplay = "Ann"\n', "neither a slot nor a person"),
    ('split = 3\n', "not a table"),
    ('[[split]\n', "Expected"),
])
def test_a_bad_override_says_what_is_wrong(text, says):
    from services.indexer.corpus.people.curation import OverridesError

    with pytest.raises(OverridesError, match=re.escape(says) if says != "Expected" else "(?i)expected"):
        parse_overrides(text)


def test_the_shipped_overrides_file_parses():
    from services.indexer.corpus.people.curation import load_overrides
    from services.indexer.corpus.people.index_pass import OVERRIDES

    assert OVERRIDES.exists()
    load_overrides(OVERRIDES)  # an operator's entry that does not parse fails here, before any pass
