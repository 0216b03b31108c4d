"""The simulated visitor of ``bench/load.py``; locust runs this file, it is not run directly.

Every visitor takes the next request of one shared Zipf-drawn sequence (written by
load.py), so popularity is the same at any concurrency. Locust cannot see cache hits: the
``X-Cache`` header of each answer is counted here and written out when locust quits,
one file per locust process.
"""

from __future__ import annotations

import itertools
import json
import os
from pathlib import Path

from locust import FastHttpUser, constant, events, task

MIX = json.loads(Path(os.environ["PAPERLIST_LOAD_MIX"]).read_text())
POOL: list[list[str]] = MIX["pool"]  # [name, path] by popularity rank
SEQUENCE: list[int] = MIX["sequence"]
# With locust --processes each process walks the sequence from its own point.
_next = itertools.count(int(os.environ.get("PAPERLIST_LOAD_OFFSET", "0")) + os.getpid() * 7919 % len(SEQUENCE))
COUNTS: dict[str, int] = {"responses": 0, "hit": 0, "miss": 0, "stale": 0, "other": 0, "absent": 0}


class Visitor(FastHttpUser):
    wait_time = constant(float(os.environ.get("PAPERLIST_LOAD_WAIT", "0")))

    @task
    def visit(self) -> None:
        name, path = POOL[SEQUENCE[next(_next) % len(SEQUENCE)]]
        with self.client.get(path, name=name, catch_response=True) as resp:
            COUNTS["responses"] += 1
            cache = (resp.headers.get("X-Cache") or "").strip().lower() if resp.headers else ""
            COUNTS[cache if cache in ("hit", "miss", "stale") else "other" if cache else "absent"] += 1
            if not 200 <= (resp.status_code or 0) < 300:
                resp.failure(f"HTTP {resp.status_code}")


@events.quitting.add_listener
def _write_counts(environment, **_kw) -> None:
    """One file per process (``--processes``): load.py adds them up."""
    Path(f"{os.environ['PAPERLIST_LOAD_COUNTS']}.{os.getpid()}").write_text(json.dumps(COUNTS))
