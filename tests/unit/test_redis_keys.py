"""Redis key names live in services/redis_keys.py only, and no two kinds of key can collide."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from services import redis_keys

SERVICES = Path(redis_keys.__file__).parent
# A key or a part of one: "paperlist:cache:", "paperlist-rl", ":lock" (prose such as "paperlist: a ..." is not).
KEYISH = re.compile(rf"^{redis_keys.PREFIX}(:\S|-rl)|:lock\b")


def _literals(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value


def test_no_module_but_redis_keys_spells_a_key():
    offenders = []
    for path in sorted(SERVICES.rglob("*.py")):
        if path == Path(redis_keys.__file__):
            continue
        for line, text in _literals(ast.parse(path.read_text(), str(path))):
            if KEYISH.search(text):
                offenders.append(f"{path.relative_to(SERVICES.parent)}:{line}: {text!r}")
    assert not offenders, "build Redis keys with services.redis_keys:\n" + "\n".join(offenders)


def test_keys_of_one_alias_are_all_different():
    alias = "papers"
    keys = [redis_keys.generation(alias), redis_keys.settling(alias), redis_keys.bumped(alias),
            redis_keys.generation_ended(alias, 3),
            redis_keys.cache_entry(alias, 3, "d"),
            redis_keys.cache_stale(alias, "d"), redis_keys.cache_lock(redis_keys.cache_entry(alias, 3, "d")),
            redis_keys.create_lock(alias), redis_keys.journal(alias), redis_keys.writes_paused(alias),
            redis_keys.writers(alias), redis_keys.reindex(alias), redis_keys.reindex_lock(alias),
            redis_keys.reindex_building(alias), redis_keys.reindex_retired(alias), redis_keys.INGEST_TOTALS,
            redis_keys.run("r1"), redis_keys.run_done("r1"), redis_keys.run_rejects("r1"),
            redis_keys.run_failed("r1"), redis_keys.run_lease("r1", "b1")]
    assert len(set(keys)) == len(keys)
    assert all(k.startswith(redis_keys.PREFIX + ":") for k in keys)
    # One alias's entries never look like another's (an alias may be a prefix of another).
    assert not redis_keys.cache_entry("papers-x", 1, "d").startswith(redis_keys.cache_entry("papers", 1, ""))
