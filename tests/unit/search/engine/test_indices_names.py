"""Versioned physical index names behind the alias, with a fake Elasticsearch client."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from types import SimpleNamespace

import pytest
from elasticsearch import ApiError

from services.search.engine import indices
from services.search.engine.indices import index_pattern, list_indices, new_index_name
from services.search.records.schema import SCHEMA_VERSION

NOW = datetime(2024, 5, 6, 7, 8, 9, tzinfo=timezone.utc)


class FakeIndices:
    def __init__(self, existing=(), aliases=None):
        self.existing = set(existing)
        self.aliases = aliases or {}
        self.asked: list[str] = []

    def exists(self, index: str) -> bool:
        self.asked.append(index)
        return index in self.existing

    def get_alias(self, name: str):
        return SimpleNamespace(body={i: {"aliases": {name: {}}} for i in self.aliases.get(name, [])})


class FakeES:
    def __init__(self, existing=(), aliases=None, rows=()):
        self.indices = FakeIndices(existing, aliases)
        self.cat = SimpleNamespace(indices=lambda **kw: SimpleNamespace(body=list(rows)))


class TestNewIndexName:
    def test_format(self):
        assert new_index_name(FakeES(), "papers", 3, now=NOW) == "papers-v3-20240506t070809"

    def test_default_version_is_the_schema_version(self):
        assert new_index_name(FakeES(), "papers", now=NOW) == f"papers-v{SCHEMA_VERSION}-20240506t070809"

    def test_pattern_without_a_clock(self):
        name = new_index_name(FakeES(), "test-abc", 7)
        assert re.fullmatch(r"test-abc-v7-\d{8}t\d{6}", name)
        stamp = datetime.strptime(name.rsplit("-", 1)[1], "%Y%m%dt%H%M%S").replace(tzinfo=timezone.utc)
        assert abs(datetime.now(timezone.utc) - stamp) < timedelta(minutes=5)

    def test_stamp_uses_the_given_time(self):
        # the caller passes UTC; the stamp is strftime of what it is given
        assert new_index_name(FakeES(), "p", 1, now=datetime(1999, 12, 31, 23, 59, 58)) == "p-v1-19991231t235958"

    def test_collision_gets_a_numbered_suffix(self):
        es = FakeES(existing={"papers-v3-20240506t070809"})
        assert new_index_name(es, "papers", 3, now=NOW) == "papers-v3-20240506t070809-2"
        assert es.indices.asked == ["papers-v3-20240506t070809", "papers-v3-20240506t070809-2"]

    def test_several_collisions(self):
        taken = {"papers-v3-20240506t070809", "papers-v3-20240506t070809-2", "papers-v3-20240506t070809-3"}
        assert new_index_name(FakeES(existing=taken), "papers", 3, now=NOW) == "papers-v3-20240506t070809-4"

    def test_lowercase_only(self):
        # Elasticsearch index names must be lowercase: the separator "t" is lowercase
        name = new_index_name(FakeES(), "papers", 3, now=NOW)
        assert name == name.lower()

    @pytest.mark.parametrize("alias", ["papers", "test-1a2b3c4d", "my.papers"])
    def test_names_match_the_pattern_and_parser(self, alias):
        plain = new_index_name(FakeES(), alias, 2, now=NOW)
        numbered = new_index_name(FakeES(existing={plain}), alias, 2, now=NOW)
        pattern = indices._name_re(alias)
        assert pattern.match(plain).groups() == ("2", "20240506t070809", None)
        assert pattern.match(numbered).groups() == ("2", "20240506t070809", "2")
        assert re.fullmatch(index_pattern(alias).replace(".", r"\.").replace("*", ".*"), plain)


def test_index_pattern():
    assert index_pattern("papers") == "papers-v*"


def test_name_parser_rejects_foreign_names():
    pattern = indices._name_re("papers")
    for name in ["papers", "papers-sources", "papers-v3", "papers-v3-2024t0708", "other-v3-20240506t070809",
                 "papers-v3-20240506t070809-x", "papersX-v3-20240506t070809"]:
        assert pattern.match(name) is None, name


def test_list_indices_parses_names_and_sorts_oldest_first():
    rows = [
        {"index": "papers-v3-20240506t070809-2", "docs.count": "10"},
        {"index": "papers-v2-20230101t000000", "docs.count": None},
        {"index": "papers-v3-20240506t070809", "docs.count": "5"},
        {"index": "papers-sources", "docs.count": "3"},
        {"index": "papers-vx-junk", "docs.count": "1"},
    ]
    es = FakeES(rows=rows, aliases={"papers": ["papers-v3-20240506t070809-2"]})
    found = list_indices(es, "papers")
    assert [(i.name, i.schema_version, i.aliased, i.docs) for i in found] == [
        ("papers-v2-20230101t000000", 2, False, 0),
        ("papers-v3-20240506t070809", 3, False, 5),
        ("papers-v3-20240506t070809-2", 3, True, 10),
    ]
    assert [i.created[:15] for i in found] == ["20230101t000000", "20240506t070809", "20240506t070809"]


def test_list_indices_orders_numbered_suffixes_numerically():
    stamp = "papers-v3-20240506t070809"
    rows = [{"index": f"{stamp}-{n}", "docs.count": "1"} for n in (10, 9, 2)] + [{"index": stamp, "docs.count": "1"}]
    found = list_indices(FakeES(rows=rows), "papers")
    assert [i.name for i in found] == [stamp, f"{stamp}-2", f"{stamp}-9", f"{stamp}-10"]


class RacedIndices:
    """``exists`` says no; ``create`` fails as Elasticsearch does when another writer created it first
    (``error``), or succeeds (``None``)."""

    def __init__(self, error: str | None):
        self.error, self.created = error, []

    def exists(self, index: str) -> bool:
        return False

    def create(self, index: str, **body) -> None:
        if self.error:
            raise ApiError(self.error, SimpleNamespace(status=400), {"error": {"type": self.error}})
        self.created.append((index, body["settings"]["number_of_shards"]))


def test_a_side_index_created_by_another_writer_meanwhile_is_no_error():
    es = SimpleNamespace(indices=RacedIndices(None))
    indices.ensure_side_index(es, "papers-maps", {"dynamic": "strict"})
    assert es.indices.created == [("papers-maps", 1)]
    indices.ensure_side_index(SimpleNamespace(indices=RacedIndices("resource_already_exists_exception")),
                              "papers-maps", {})  # two map builds on a new alias: the loser carries on
    with pytest.raises(ApiError):
        indices.ensure_side_index(SimpleNamespace(indices=RacedIndices("mapper_parsing_exception")), "x", {})
