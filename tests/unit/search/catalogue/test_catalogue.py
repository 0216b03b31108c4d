"""The venue/topic catalogue: it loads, validates, names what is broken, and covers the sample data."""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from services.indexer.cleaning.text import clean_text
from services.search.catalogue import (
    FILES,
    STATUSES,
    VENUE_KINDS,
    CatalogueError,
    catalogue,
    load_catalogue,
    taxonomy,
    venues,
)

REPO = Path(__file__).resolve().parents[4]
SAMPLE = REPO / "data" / "sample"
PACKAGE = resources.files("services.search.catalogue")


def test_catalogue_loads_once_and_holds_the_taxonomy_and_venues() -> None:
    data = catalogue()
    assert catalogue() is data
    assert len(data.topics) == 30 and data.topics[-1].slug == data.fallback == taxonomy.FALLBACK
    assert all(t.strong and t.weak for t in data.topics)
    assert venues.KNOWN == data.venues
    assert {"neurips", "iclr", "icra", "acl", "siggraphasia"} <= {v.slug for v in data.venues}


def test_nothing_is_read_at_import_time() -> None:
    code = ("import services.search.catalogue.venues, services.search.catalogue.taxonomy, services.indexer.paper.topics, "
            "services.indexer.paper.normalise; from services.search.catalogue import catalogue; "
            "print(catalogue.cache_info().currsize)")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "0"


def test_every_alias_resolves_to_its_venue() -> None:
    aliases = [(alias, v.slug) for v in venues.KNOWN for alias in v.aliases]
    assert ("nips", "neurips") in aliases
    for alias, slug in aliases:
        assert venues.canonical_slug(alias) == slug
        assert venues.canonical_slug(alias.upper()) == slug
        assert venues.lookup(alias).slug == slug


def test_every_home_topic_is_a_topic() -> None:
    homes = {v.home_topic for v in venues.KNOWN if v.home_topic}
    assert "robotics" in homes
    assert homes <= {t.slug for t in taxonomy.TOPICS}


def test_unseen_conference_gets_a_label_and_no_home_topic() -> None:
    venue = venues.lookup("Some New Workshop")
    assert (venue.slug, venue.name, venue.home_topic) == ("some-new-workshop", "Some New Workshop", None)
    assert venues.label("xyz") == "XYZ"
    assert "some-new-workshop" not in {v.slug for v in venues.KNOWN}
    assert catalogue().outcome("some-new-workshop", "Oral").tier == "oral"


def test_journals_are_cited_by_journal_name_and_conferences_by_proceedings() -> None:
    data = catalogue()
    journals = {v.slug for v in data.venues if v.kind == "journal"}
    assert {"tmlr", "jmlr", "tacl"} <= journals
    assert all(v.journal and not v.booktitle and v.proceedings(2024) == "" for v in data.venues if v.is_journal)
    assert data.venue("neurips").proceedings(2023) == "Advances in Neural Information Processing Systems"
    assert data.venue("eccv").proceedings(2024) == "Computer Vision -- ECCV 2024"  # the {year} placeholder
    assert data.venue("uai").proceedings(2020) == data.venue("uai").booktitle
    assert data.venue("sgp").proceedings(2020) == data.venue("sgp").full_name  # none listed: the full name
    assert (data.venue("jmlr").volume(2020), data.venue("tacl").volume(2023), data.venue("tacl").volume(2000)) == \
        (21, 11, None)
    assert data.venue("tmlr").volume(2024) is None  # no volumes by year
    assert venues.lookup("some-new-journal").kind == "conference"  # unknown venues: conferences


def test_every_venue_of_the_sample_is_in_the_catalogue_with_names_kind_and_citation() -> None:
    folders = {venues.canonical_slug(p.name) for p in SAMPLE.iterdir() if p.is_dir()}
    assert len(folders) >= 40
    missing = sorted(f for f in folders if catalogue().venue(f) is None)
    assert missing == []
    for slug in folders:
        venue = catalogue().venue(slug)
        assert venue.name and venue.full_name and venue.kind in VENUE_KINDS, slug
        assert venue.journal if venue.is_journal else venue.proceedings(2024), slug
        assert venue.month or venue.is_journal, slug  # the front page orders conference-years by it


def _sample_statuses() -> set[tuple[str, str]]:
    found = set()
    for path in SAMPLE.glob("*/*.json*"):
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8") as fh:
            records = json.load(fh)
        venue = venues.canonical_slug(path.parent.name)
        found |= {(venue, clean_text(r["status"])) for r in records if isinstance(r.get("status"), str)}
    return found


def test_status_vocabulary_lists_every_status_of_the_sample() -> None:
    found = _sample_statuses()
    assert len(found) > 40
    unlisted = sorted((venue, raw) for venue, raw in found
                      if (v := venues.lookup(venue)).statuses == () or v.outcome_name(raw) is None)
    assert unlisted == []


def test_status_outcomes_read_venue_vocabularies_then_the_facet_rules() -> None:
    data = catalogue()
    assert data.outcome("iclr", "Top-5%").tier == "oral"
    assert data.outcome("iclr", "POSTER").tier == "poster"  # case-insensitive
    reject = data.outcome("iclr", "Desk Reject")
    assert (reject.decided, reject.accepted) == (True, False)
    assert not data.outcome("iclr", "Withdraw").decided
    assert data.outcome("aaai", "Student Abstract").main is False
    assert data.outcome("acl", "Findings").tier == "findings"
    assert data.outcome("neurips", "Accept (Oral)").tier == "oral"  # unlisted: facet rules
    assert set(STATUSES) <= set(data.statuses.outcomes)
    assert all(o.decided for o in data.statuses.outcomes.values() if o.accepted)


def test_accepted_statuses_are_the_main_tracks_acceptances_whatever_their_tier() -> None:
    # What status=accept selects: the tiers and the untiered, not findings, workshops or demos.
    assert catalogue().statuses.accepted_main() == ("oral", "spotlight", "poster", "accept", "short")


def test_a_status_is_mapped_when_its_venue_lists_it_or_a_facet_rule_reads_it() -> None:
    data = catalogue()
    assert data.reads("tmlr", "Journal") and data.reads("conll", "Shared Task")  # listed by the venue
    assert data.reads("conll", "shared task ")  # case and padding do not matter
    assert data.outcome("conll", "Shared Task").main is False
    assert data.reads("newvenue", "Accept (Oral)") and data.reads("newvenue", "Accepted")  # facet rules
    assert data.reads("newvenue", "")  # no status is not a word to map
    assert not data.reads("newvenue", "Journal") and not data.reads("iclr", "Keynote")  # only `otherwise`
    assert data.statuses.facet_status("Keynote") == data.statuses.facet.otherwise


# -- broken files -----------------------------------------------------------------------------

@pytest.fixture
def copy(tmp_path: Path) -> Path:
    for name in FILES:
        shutil.copyfile(str(PACKAGE / name), tmp_path / name)
    return tmp_path


def _edit(folder: Path, name: str, old: str, new: str) -> None:
    text = (folder / name).read_text()
    assert old in text
    (folder / name).write_text(text.replace(old, new, 1))


def test_an_untouched_copy_loads_like_the_package(copy: Path) -> None:
    assert load_catalogue(copy) == catalogue()


@pytest.mark.parametrize(("name", "old", "new", "expected"), [
    ("venues.toml", 'home_topic = "robotics"', 'home_topic = "robotix"',
     ["venues.toml", "venues.icra.home_topic", "robotix"]),
    ("venues.toml", 'home_topic = "robotics"', 'home_topc = "robotics"',
     ["venues.toml", "venues.icra.home_topc", "Extra inputs"]),
    ("venues.toml", 'aliases = ["nips"]', 'aliases = ["iclr"]',
     ["venues.toml", "'iclr' already names venue"]),
    ("venues.toml", '"Top-5%" = "oral"', '"Top-5%" = "keynote"',
     ["venues.toml", "venues.iclr.statuses", "keynote"]),
    ("venues.toml", 'kind = "journal"', 'kind = "magazine"',
     ["venues.toml", "venues.tmlr.kind", "conference", "journal", "workshop"]),
    ("venues.toml", 'journal = "Transactions on Machine Learning Research"', 'booktitle = "TMLR"',
     ["venues.toml", "venues.tmlr", "a journal is cited by its `journal` name"]),
    ("venues.toml", 'booktitle = "Computer Vision -- ECCV {year}"', 'booktitle = "Computer Vision -- ECCV {yr}"',
     ["venues.toml", "venues.eccv.booktitle", "{year}"]),
    ("venues.toml", 'month = 12\naliases = ["nips"]', 'month = 12\nfirst_volume = 1987\naliases = ["nips"]',
     ["venues.toml", "venues.neurips", "for journals, not a conference"]),
    ("topics.toml", "computer vision; machine vision;", "computer vision; Machine-Vision;",
     ["topics.toml", "topics.computer-vision.strong", "pattern"]),
    ("topics.toml", "computer vision; machine vision;", "computer vision; computer vision;",
     ["topics.toml", "topics.computer-vision", "cue listed twice: computer vision"]),
    ("topics.toml", 'fallback = "machine-learning"', 'fallback = "ml"',
     ["topics.toml", "fallback 'ml' is not a topic"]),
    ("topics.toml", 'label = "Computer Vision"', 'label = "Computer Vision',
     ["topics.toml", "not valid TOML", "line"]),
    ("statuses.toml", 'status = "withdrawn"', 'status = "withdrew"',
     ["statuses.toml", "facet", "'withdrew' is not a status facet value"]),
    ("statuses.toml", "reject = { decided = true, accepted = false }\n", "",
     ["statuses.toml", "no entry for the facet values reject"]),
])
def test_a_broken_file_names_the_file_and_entry(copy: Path, name: str, old: str, new: str,
                                                 expected: list[str]) -> None:
    _edit(copy, name, old, new)
    with pytest.raises(CatalogueError) as info:
        load_catalogue(copy)
    for part in expected:
        assert part in str(info.value)


def test_a_missing_file_is_named(copy: Path) -> None:
    (copy / "statuses.toml").unlink()
    with pytest.raises(CatalogueError, match=r"statuses\.toml: missing"):
        load_catalogue(copy)


def test_a_venue_year_is_dated_by_the_catalogues_month():
    from datetime import date

    from services.search.catalogue.venues import held_on

    assert held_on("neurips", 2023) == date(2023, 12, 1) and held_on("nips", 2023) == date(2023, 12, 1)
    assert held_on("iclr", 2025) == date(2025, 4, 1)
    assert held_on("tmlr", 2024) == date(2024, 1, 1) and held_on("no-such-venue", 2020) == date(2020, 1, 1)
