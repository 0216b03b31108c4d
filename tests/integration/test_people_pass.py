"""The people pass against the real stores: ids that outlive a new venue's ingest, an operator's overrides applied
by the pass, and ``paperlist people`` (slots, explain, overrides) as an operator runs it.

Two venues of the bundled sample that carry OpenReview profile ids (ICLR and ICML) are ingested into an alias of
this module's own, its people pass included; CoRL (another venue, its papers ids too) arrives after.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections import Counter

import pytest
from elasticsearch import helpers

from conftest import SAMPLE, drop_alias, run_ingest
from services.indexer.corpus.people.curation import Overrides, parse_overrides
from services.indexer.corpus.people.index_pass import run_pass
from services.search.engine import people_store
from services.search.records.people import Person, Successor

pytestmark = pytest.mark.integration

Slots = dict[tuple[str, int], str]


@pytest.fixture(scope="module")
def two_venues(settings, celery_app, es, redis_client, worker, tmp_path_factory):
    alias = f"test-people-{uuid.uuid4().hex[:8]}"
    summary = run_ingest(settings, celery_app, es, redis_client, [SAMPLE / "iclr", SAMPLE / "icml"], alias,
                         rejects_dir=tmp_path_factory.mktemp("rejects"))
    assert summary.people is not None and summary.people > 1000, summary
    yield alias
    drop_alias(es, alias)
    es.indices.delete(index=settings.people_index_of(alias), ignore_unavailable=True)


def _slots(es, alias: str) -> Slots:
    es.indices.refresh(index=alias)
    out: Slots = {}
    for hit in helpers.scan(es, index=alias, _source=["author_ids"], query={"query": {"match_all": {}}}):
        for place, person in enumerate(hit["_source"].get("author_ids") or []):
            out[(hit["_id"], place)] = person
    return out


def _cli(settings, alias: str, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "ES_URL": settings.es_url, "REDIS_URL": settings.redis_url, "PAPERLIST_INDEX": alias}
    return subprocess.run([sys.executable, "-m", "services.cli", "people", *args], env=env, capture_output=True,
                          text=True, timeout=600)


def _a_person_of_several_slots(slots: Slots) -> tuple[str, list[tuple[str, int]]]:
    counts = Counter(slots.values())
    person = min((p for p, n in counts.items() if n >= 3), key=lambda p: (-counts[p], p))
    return person, sorted(k for k, p in slots.items() if p == person)


def test_a_new_venues_ingest_keeps_every_person_id(settings, celery_app, es, redis_client, two_venues, tmp_path):
    before = _slots(es, two_venues)
    assert len(before) > 4000 and all(before.values())
    summary = run_ingest(settings, celery_app, es, redis_client, [SAMPLE / "corl"], two_venues,
                         rejects_dir=tmp_path / "rejects")
    assert summary.indexed > 200
    after = _slots(es, two_venues)
    assert len(after) > len(before) and all(after.values())
    people = settings.people_index_of(two_venues)
    answered = {pid: people_store.load(es, people, pid) for pid in set(before.values())}
    assert all(isinstance(answer, (Person, Successor)) for answer in answered.values()), \
        [pid for pid, answer in answered.items() if answer is None][:5]   # every address still leads somewhere
    retired = {pid: answer for pid, answer in answered.items() if isinstance(answer, Successor)}
    moved = {key: (old, after[key]) for key, old in before.items() if after[key] != old}
    for old, new in moved.values():
        if old in retired:  # a merge or a split that new evidence forced: the old id leads to the new
            assert new in retired[old].successors, (old, new)
    # The rest moved between people who both live on (new papers showed a slot to be the other's): a few.
    assert len(retired) <= len(answered) // 100, f"{len(retired)} of {len(answered)} person ids retired"
    assert len(moved) <= len(before) // 100, f"{len(moved)} of {len(before)} author places changed person"


def test_the_pass_applies_an_operators_split_and_display_name(settings, es, redis_client, two_venues):
    people = settings.people_index_of(two_venues)
    person, held = _a_person_of_several_slots(_slots(es, two_venues))
    chosen = f"{held[0][0]}#{held[0][1]}"
    split = parse_overrides(f'[[split]]\nslots = ["{chosen}"]\nname = "Split Off (by the operator)"\n')
    try:
        result = run_pass(es, redis_client, two_venues, people, split)
        assert result.updated == 1   # only the paper of the slot split off changes
        now = _slots(es, two_venues)
        assert now[held[0]] != person and all(now[key] == person for key in held[1:])
        own = people_store.load(es, people, now[held[0]])
        assert isinstance(own, Person) and own.name == "Split Off (by the operator)" and own.papers + own.hidden == 1
    finally:
        run_pass(es, redis_client, two_venues, people, Overrides())
    assert _slots(es, two_venues)[held[0]] == person or isinstance(people_store.load(es, people, person), Successor)


def test_people_slots_and_explain_as_an_operator_runs_them(settings, es, two_venues):
    person, held = _a_person_of_several_slots(_slots(es, two_venues))
    listed = _cli(settings, two_venues, "slots", held[0][0])
    assert listed.returncode == 0, listed.stderr
    assert f"{held[0][0]}#{held[0][1]}" in listed.stdout and person in listed.stdout

    a, b = (f"{key[0]}#{key[1]}" for key in held[:2])
    why = _cli(settings, two_venues, "explain", a, b)
    assert why.returncode == 0, why.stderr
    assert "same person" in why.stdout and person in why.stdout

    missing = _cli(settings, two_venues, "explain", a, "no-such-paper#0")
    assert missing.returncode == 1 and "no slot no-such-paper#0" in missing.stderr
    malformed = _cli(settings, two_venues, "explain", a, "no-position")
    assert malformed.returncode == 2 and "is not a slot" in malformed.stderr
    unknown = _cli(settings, two_venues, "slots", "no-such-paper")
    assert unknown.returncode == 1 and "no paper 'no-such-paper'" in unknown.stderr
    for answer in (missing, malformed, unknown):
        assert "Traceback" not in answer.stdout + answer.stderr


def test_people_overrides_checks_a_file_before_it_is_committed(settings, es, two_venues, tmp_path):
    _, held = _a_person_of_several_slots(_slots(es, two_venues))
    chosen = f"{held[0][0]}#{held[0][1]}"
    good = tmp_path / "good.toml"
    good.write_text(f'[[name]]\nslot = "{chosen}"\ndisplay = "Named By Hand"\n')
    checked = _cli(settings, two_venues, "overrides", str(good))
    assert checked.returncode == 0, checked.stderr
    assert "Named By Hand" in checked.stdout and "every entry applies" in checked.stdout

    stale = tmp_path / "stale.toml"
    stale.write_text('[[split]]\nslots = ["gone-paper#3"]\n')
    flagged = _cli(settings, two_venues, "overrides", str(stale))
    assert flagged.returncode == 1 and "no slot gone-paper#3" in flagged.stderr

    broken = tmp_path / "broken.toml"
    broken.write_text('[[merge]]\nslots = ["a#0"]\n')
    refused = _cli(settings, two_venues, "overrides", str(broken))
    assert refused.returncode == 2 and "broken.toml: a merge names at least two" in refused.stderr
    assert "Traceback" not in refused.stderr + flagged.stderr
