"""A person as the people index stores it: labels that tell two people of one name apart, and the stored form."""

from __future__ import annotations

from services.search.engine.people_store import PERSON, SUCCESSOR, document, parse
from services.search.records.people import Counted, Person, Successor


def person(**fields) -> Person:
    return Person(**{"person_id": "p1", "name": "Yang Liu", "name_key": "yang liu", **fields})


def test_a_label_names_the_persons_main_affiliation_else_venue():
    assert person(affiliations=[Counted(value="Tsinghua University", papers=30)]).label == "Yang Liu · Tsinghua University"
    assert person(venues=[Counted(value="ACL", papers=3)]).label == "Yang Liu · ACL"
    assert person().label == "Yang Liu"


def test_years_are_a_range_or_one_year():
    assert person(first_year=2019, last_year=2024).years == "2019–2024"
    assert person(first_year=2021, last_year=2021).years == "2021"
    assert person().years == ""


def test_stored_form_round_trips_and_is_suggested_from_any_word_of_any_spelling():
    stored = document(person(names=["Yang Liu", "Yáng Liú"], papers=12, hidden=1))
    assert stored["kind"] == PERSON
    assert {"Yang Liu", "Liu Yang", "Yáng Liú", "Liú Yáng"} <= set(stored["suggest"]["input"])
    assert stored["suggest"]["weight"] == 13
    assert parse(stored) == person(names=["Yang Liu", "Yáng Liú"], papers=12, hidden=1)


def test_a_retired_id_is_stored_as_its_successors():
    stored = document(Successor(person_id="p9", change="merged", successors=["p1"]))
    assert stored["kind"] == SUCCESSOR
    assert parse(stored) == Successor(person_id="p9", change="merged", successors=["p1"])
