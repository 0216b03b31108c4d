"""The curated affiliation alias table (services/indexer/cleaning/vocab/affiliation_aliases.toml) is data: these
check it as data, and the rules it is curated by (one institution, one name; distinct labs kept apart)."""

from __future__ import annotations

import tomllib
from collections import Counter

import pytest
from ftfy.fixes import fix_latin_ligatures

from services.indexer.cleaning import affiliations
from services.indexer.cleaning.affiliations import VOCAB, affiliation_key, aliases, canonical_affiliation, canonical_key


def _groups() -> list[list[str]]:
    with open(VOCAB / "affiliation_aliases.toml", "rb") as f:
        return [group["names"] for group in tomllib.load(f)["institution"]]


def test_every_name_of_a_group_is_that_institution_and_no_other():
    table = aliases()
    keys = [{affiliation_key(n) for n in names} for names in _groups()]
    for names in _groups():
        assert {table[affiliation_key(n)] for n in names} == {affiliation_key(names[0])}, names
    assert sum(len(k) for k in keys) == len(set().union(*keys))  # no spelling in two groups


def test_a_name_under_two_institutions_is_refused(monkeypatch, tmp_path):
    (tmp_path / "affiliation_aliases.toml").write_text(
        '[[institution]]\nnames = ["Google", "Alphabet"]\n[[institution]]\nnames = ["Alphabet Inc.", "X"]\n')
    monkeypatch.setattr(affiliations, "VOCAB", tmp_path)
    affiliations.aliases.cache_clear()
    try:
        with pytest.raises(ValueError, match="two institutions"):
            affiliations.aliases()
    finally:
        monkeypatch.undo()
        affiliations.aliases.cache_clear()


def test_each_institution_has_one_display_name():
    """The generated display table gives each institution (canonical key) at most one spelling."""
    with open(VOCAB / "affiliation_display.toml", "rb") as f:
        shown = Counter(canonical_key(name) for name in tomllib.load(f)["display"])
    assert [key for key, n in shown.items() if n > 1] == []


def test_display_names_are_spelt_as_ingest_cleans_text():
    """No ligature from a PDF ("Artiﬁcial") in a display name: it would undo the cleaning of every spelling it shows."""
    with open(VOCAB / "affiliation_display.toml", "rb") as f:
        names = tomllib.load(f)["display"]
    assert [n for n in names if fix_latin_ligatures(n) != n] == []
    assert canonical_affiliation("Institute for Arti\ufb01cial Intelligence, Tsinghua University") == \
        "Institute for Artificial Intelligence, Tsinghua University"


def test_no_placeholder_is_an_institution():
    with open(VOCAB / "affiliation_aliases.toml", "rb") as f:
        placeholders = {affiliation_key(p) for p in tomllib.load(f)["placeholders"]}
    assert not placeholders & {affiliation_key(n) for names in _groups() for n in names}


@pytest.mark.parametrize("spellings", [
    # The author page: "Google 37 / Google Research 2 / Robotics at Google 1" is one institution.
    ["Google", "Google Research", "Robotics at Google", "Google Inc.", "Google LLC", "Google Brain",
     "Google Research, Brain Team", "Google Research, Mountain View, CA, USA", "Research, Google"],
    ["DeepMind", "Google DeepMind", "DeepMind, London", "DeepMind Technologies", "Google DeepMind, London, UK",
     "Google DeepMind♠"],  # a footnote's suit mark is no part of the name
])
def test_one_company_shows_as_one_institution(spellings):
    assert len({canonical_affiliation(s) for s in spellings}) == 1


def test_google_and_deepmind_keep_their_most_frequent_names_and_stay_apart():
    assert canonical_affiliation("Google Research") == "Google"
    assert canonical_affiliation("DeepMind") == "Google DeepMind"  # the lab's name since 2023, its most frequent
    assert canonical_key("Google DeepMind") != canonical_key("Google")
    assert canonical_key("Google X") != canonical_key("Google")  # Alphabet's X is not Google's research


def test_an_author_page_shows_one_google_where_the_sources_spell_it_three_ways():
    """Issue 33's author page ("Google 37 / Google Research 2 / Robotics at Google 1"): normalised at ingest, the
    author's affiliations are counted as one institution."""
    from services.indexer.paper.normalise import Origin, normalise
    from services.search.answers.authors import own_affiliations
    from services.search.records.name_keys import author_key

    papers = [normalise({"id": f"p{i}", "title": f"Robot paper {i}", "status": "Poster", "author": "Ada Robot;Bo Arm",
                         "aff": f"{aff};University of California, Berkeley"},
                        Origin("corl/corl2023.json", i, "corl", 2023, format="paperlists"))
              for i, aff in enumerate(["Google", "Google Research", "Robotics at Google", "Google Research, Brain Team"])]
    assert own_affiliations(author_key("Ada Robot"), papers) == [("Google", 4)]
