"""Hostile ingest files through the real ingest (Celery worker, Elasticsearch): truncated
JSON, wrong types, huge fields, a 100 MB title, deep nesting and seeded byte damage.

Required: no crash; every good record lands; every bad one is rejected with a reason;
the counts add up (read = indexed + unchanged + rejected).
"""

from __future__ import annotations

import json
import random
import sys

import pytest

pytestmark = [pytest.mark.integration, pytest.mark.slow]

SEED = 1011
MB = 1024 * 1024


def _good(tag: str, i: int) -> dict:
    return {"title": f"Fuzzed ingest record {tag} number {i} zq{tag}{i}x", "id": f"{tag}-{i}",
            "author": "Ada Lovelace; Alan Turing", "aff": "Analytical Engines; Bletchley Park",
            "abstract": f"An abstract for record {i} of {tag}.", "status": "Poster", "track": "main",
            "keywords": "fuzzing; robustness"}


def _write(path, records) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(records))


def _files(root) -> tuple[set[str], int]:
    """Write the hostile files; return the titles of the good records and how many there are."""
    rng = random.Random(SEED)
    good: set[str] = set()

    def goods(tag: str, n: int) -> list[dict]:
        out = [_good(tag, i) for i in range(n)]
        good.update(r["title"] for r in out)
        return out

    conf = root / "iclr"
    # 1. plain good records
    _write(conf / "iclr2021.json", goods("plain", 10))
    # 2. truncated in the middle of a record: the whole ones before the cut land
    whole = goods("trunc", 5)
    text = json.dumps([*whole, _good("cut", 0)])
    (conf / "iclr2022.json").write_text(text[: len(text) - 40])
    # 3. wrong types next to good records
    bad_types = [{"title": 12}, {"title": None}, {"title": ["a", "list"]}, {"title": {"nested": 1}},
                 "a string record", 42, None, [1, 2, 3], {"no_title": "x"}, {"title": ""},
                 {"title": "Year is text", "year": "two thousand", "id": "wt-1"},
                 {"title": "Author is a list", "author": ["a", "b"], "id": "wt-2"},
                 {"title": "Abstract is a number", "abstract": 3.14, "id": "wt-3"},
                 {"title": "Keywords object", "keywords": {"a": 1}, "id": "wt-4"}]
    mixed = [*goods("types", 4), *bad_types]
    rng.shuffle(mixed)
    _write(conf / "iclr2023.json", mixed)
    # 4. huge fields: one far too large (rejected), one large (accepted, cut to the limit)
    _write(conf / "iclr2024.json", [*goods("huge", 3),
                                    {"title": "Huge abstract", "id": "h-1", "abstract": "w " * (2 * MB)},
                                    {"title": "Large abstract ok", "id": "h-2", "abstract": "word " * 100_000},
                                    {"title": "Many authors", "id": "h-3", "author": "; ".join(["X Y"] * 20_000)}])
    good.update({"Large abstract ok", "Many authors"})
    # 5. a 100 MB title, streamed to disk (never held in memory here)
    big = root / "icml" / "icml2021.json"
    big.parent.mkdir(parents=True, exist_ok=True)
    after = goods("big", 3)
    with big.open("w") as out:
        out.write('[{"id": "big-title", "title": "')
        chunk = "abcdefghij" * (MB // 10)
        for _ in range(100):
            out.write(chunk)
        out.write('"}, ')
        out.write(json.dumps(after)[1:])
    # 6. deep nesting: inside a record, and as a record of its own
    depth = 100_000
    deep = json.dumps(goods("deep", 3))[:-1]
    deep += ', {"id": "deep-1", "title": "Deep", "extra": ' + "[" * depth + "]" * depth + "}"
    deep += ", " + "[" * depth + "]" * depth
    deep += ", " + json.dumps(goods("deepafter", 2))[1:]
    (root / "icml" / "icml2022.json").write_text(deep)
    # 7. seeded byte damage to otherwise good files (the good records there are not counted)
    for n in range(5):
        text = bytearray(json.dumps([_good(f"dmg{n}", i) for i in range(8)]).encode())
        for _ in range(rng.randint(1, 6)):
            text[rng.randrange(len(text))] = rng.choice(b'{}[]",:\\\x00\xff ')
        (root / "neurips" / f"neurips20{10 + n}.json").parent.mkdir(parents=True, exist_ok=True)
        (root / "neurips" / f"neurips20{10 + n}.json").write_bytes(bytes(text))
    return good, len(good)


def test_hostile_ingest_files(ingest, alias, es, tmp_path):
    good, n_good = _files(tmp_path / "src")
    summary = ingest([tmp_path / "src"], alias)
    print(f"\ningest fuzz: read {summary.read}, indexed {summary.indexed}, unchanged {summary.unchanged}, "
          f"rejected {summary.rejected}, problems {summary.problems}", file=sys.stderr)
    assert summary.read == summary.indexed + summary.unchanged + summary.rejected
    titles = {h["_source"]["title"] for h in es.search(index=alias, size=1000, _source=["title"],
                                                      query={"match_all": {}})["hits"]["hits"]}
    missing = good - titles
    assert not missing, f"good records that did not land: {sorted(missing)[:10]}"
    assert not any(len(t) > 100_000 for t in titles), "the 100 MB title must not be indexed"
    assert summary.rejected >= 14  # wrong types, the huge field, the 100 MB title, the deep ones, the cut one
    lines = [json.loads(line) for line in summary.rejects_path.read_text().splitlines()]
    assert all(entry.get("reason") for entry in lines), "every rejection says why"
    reasons = " | ".join(entry["reason"] for entry in lines)
    assert "nested too deeply" in reasons and "characters (at most" in reasons
    print(f"  {n_good} good records landed; {len(lines)} rejections with reasons", file=sys.stderr)
