"""The reader under hostile files: deep nesting and absurd values are rejected, not crashes."""

from __future__ import annotations

import json

from services.indexer.sources import parse_array
from services.indexer.sources.paperlists import MAX_FIELD_CHARS

DEEP = "[" * 100_000 + "]" * 100_000


def test_deep_nesting_is_a_rejected_record_and_the_neighbours_survive():
    good = [{"title": "a"}, {"title": "b"}]
    text = json.dumps(good)[:-1] + ", " + DEEP + ", " + '{"title": "c", "x": ' + DEEP + "}, " + '{"title": "d"}]'
    loaded = parse_array("deep.json", text)
    assert [r["title"] for _, r in loaded.records] == ["a", "b", "d"]
    assert [pos for pos, _ in loaded.errors] == [2, 3]
    assert all("nested too deeply" in reason for _, reason in loaded.errors)


def test_a_value_beyond_the_limit_rejects_its_record_only():
    text = json.dumps([{"title": "x" * (MAX_FIELD_CHARS + 1)}, {"title": "ok", "abstract": "y" * 1000}])
    loaded = parse_array("big.json", text)
    assert [pos for pos, _ in loaded.records] == [1]
    assert loaded.errors[0][0] == 0 and "'title'" in loaded.errors[0][1]
