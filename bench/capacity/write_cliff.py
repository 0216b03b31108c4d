"""What a write does to a warm crowd: the Zipf mix at one rate, the index generation bumped mid-step (issue 52).

Every write to the index (an ingest batch, a corpus pass, a followed source landing) bumps the result
cache's generation, and every cached answer misses at once: the crowd that the caches answered meets
Elasticsearch together. The result cache may answer a miss right after a write with the request's last
answer while it computes the new one (``PAPERLIST_CACHE_REFRESH_WINDOW``, services/web/cache/results.py).
This measures both ways in one run: two fronts as ``paperlist up`` starts them (gunicorn behind nginx, the
edge included) over the same index, one with the window off, one with it on, taken in turns (ABBA), each
started cold in a generation of its own and warmed with the mix, then loaded at ``--rate`` for ``--seconds`` with the generation bumped ``--bump-at``
seconds in (as a write does). Per front: the seconds before the bump, the first ``--after`` seconds after
it, the rest: answered rate, p50/p99/max (from each request's intended send time, vegeta's open loop),
errors, shed (503/429), stale share (``X-Cache: stale``) and the app's misses.

Both fronts share Redis and the index: each run's warm-up fills the generation it starts in. Loopback
only; every attack is bounded by its seconds and vegeta's timeout.

    python -m bench.capacity.write_cliff --index full12m --rate 200 [--rounds 2] [--seconds 15]
"""

from __future__ import annotations

import argparse
import shutil
import socket
import tempfile
import threading
import time
from contextlib import ExitStack
from pathlib import Path

import redis

from bench.capacity.capacity import TIMEOUT_S, Walk, attack, vegeta_binary
from bench.capacity.load import drawn_mix, mix_arguments
from bench.capacity.steps import _when, figures
from bench.harness import save
from services import redis_keys
from services.search.engine.generation import bump_generation
from services.settings import load_settings

MAX_SECONDS = 30
WINDOWS = (0, 30)  # the refresh window of each front: off, then the default


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_front(settings, index: str, window: int, stack: ExitStack) -> str:
    """A front over ``index`` with the refresh window ``window`` in a home of its own; stopped with ``stack``."""
    from services.ops import LocalStack

    home = Path(tempfile.mkdtemp(prefix="paperlist-cliff-"))
    home.chmod(0o755)  # nginx's workers must reach the socket
    port = _free_port()
    own = load_settings(ES_URL=settings.es_url, REDIS_URL=settings.redis_url, PAPERLIST_INDEX=index,
                        PAPERLIST_HOME=str(home), PAPERLIST_PORT=str(port), PAPERLIST_FOLLOW="false",
                        PAPERLIST_CACHE_REFRESH_WINDOW=str(window))
    local = LocalStack(own, log=lambda line: None)
    stack.callback(shutil.rmtree, home, ignore_errors=True)
    stack.callback(local.down)
    local.ensure_web()
    return f"http://127.0.0.1:{port}"


def cold_without_marks(client: redis.Redis, index: str) -> None:
    """A new generation, as if long after the last write: the warm-up fills it, and no earlier run's
    bump lets either front answer with an earlier generation's answers."""
    new = bump_generation(client, index)
    client.delete(redis_keys.bumped(index), redis_keys.generation_ended(index, new - 1))


def loaded_with_a_bump(vegeta: str, web: str, paths: list[str], rate: int, seconds: int, bump_at: float,
                       after: float, client: redis.Redis, index: str, scratch: Path) -> dict:
    """One attack with the generation bumped ``bump_at`` seconds in; figures before, just after, and later."""
    bumped: list[float] = []

    def bump() -> None:
        time.sleep(bump_at)
        bump_generation(client, index)
        bumped.append(time.time())

    bumper = threading.Thread(target=bump, daemon=True)
    bumper.start()
    results = attack(vegeta, web, paths, rate, seconds, scratch)
    bumper.join(timeout=TIMEOUT_S)
    at = bumped[0] if bumped else float("inf")
    parts = {"before": [r for r in results if _when(r["timestamp"]) < at],
             "just_after": [r for r in results if at <= _when(r["timestamp"]) < at + after],
             "later": [r for r in results if _when(r["timestamp"]) >= at + after]}
    spans = {"before": bump_at, "just_after": after, "later": max(seconds - bump_at - after, 1)}
    return {name: _renumbered(part, rate, spans[name]) for name, part in parts.items()}


def _renumbered(part: list[dict], rate: int, span: float) -> dict:
    """``figures`` of a stretch of an attack: its requests numbered from the stretch's first, so that
    lateness is counted from the stretch's own schedule."""
    part = sorted(part, key=lambda r: r["seq"])
    first = part[0]["seq"] if part else 0
    return figures([{**r, "seq": r["seq"] - first} for r in part], rate, max(int(span), 1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--index", required=True, help="the alias both fronts read (the full corpus, force-merged)")
    parser.add_argument("--rate", type=int, default=200, help="offered req/s (below the Zipf knee: a crowd it answers)")
    parser.add_argument("--seconds", type=int, default=15, help=f"seconds of each loaded run (1-{MAX_SECONDS})")
    parser.add_argument("--warmup", type=int, default=15, help=f"seconds of warm-up before each (0-{MAX_SECONDS})")
    parser.add_argument("--bump-at", type=float, default=3.0, help="seconds into the run the generation is bumped")
    parser.add_argument("--after", type=float, default=5.0, help="seconds after the bump counted apart")
    parser.add_argument("--rounds", type=int, default=2, help="ABBA rounds: 1 runs off, on; 2 off, on, on, off")
    mix_arguments(parser)
    args = parser.parse_args()
    if not 1 <= args.seconds <= MAX_SECONDS or not 0 <= args.warmup <= MAX_SECONDS or not 1 <= args.rounds <= 3:
        parser.error(f"--seconds 1-{MAX_SECONDS}, --warmup 0-{MAX_SECONDS}, --rounds 1-3")
    if not 1 <= args.rate <= 2000 or not 0 < args.bump_at < args.seconds or args.after <= 0:
        parser.error("--rate 1-2000, --bump-at inside the run, --after positive")
    vegeta = vegeta_binary()
    settings = load_settings()
    _, _, pool, sequence, _ = drawn_mix(args, settings)
    client = redis.Redis.from_url(settings.redis_url)
    order = [w for r in range(args.rounds) for w in (WINDOWS if r % 2 == 0 else WINDOWS[::-1])]
    runs: list[dict] = []
    with ExitStack() as stack, tempfile.TemporaryDirectory(prefix="paperlist-cliff-") as tmp:
        fronts = {w: start_front(settings, args.index, w, stack) for w in WINDOWS}
        for n, window in enumerate(order):
            walk = Walk([pool[i][1] for i in sequence])  # every run the same stretch of the mix
            cold_without_marks(client, args.index)
            if args.warmup:
                attack(vegeta, fronts[window], walk.take(args.rate * args.warmup), args.rate, args.warmup, Path(tmp))
            parts = loaded_with_a_bump(vegeta, fronts[window], walk.take(args.rate * args.seconds), args.rate,
                                       args.seconds, args.bump_at, args.after, client, args.index, Path(tmp))
            runs.append({"run": n, "window_s": window, **parts})
            for name, f in parts.items():
                print(f"window {window:>2} s run {n}  {name:<10} sent {f['sent']:>5}  p50 {f.get('p50_ms', 0):>7.1f}  "
                      f"p99 {f['p99_ms']:>7.1f}  max {f.get('max_ms', 0):>7.1f} ms  errors {f['errors']:>4}  "
                      f"shed {100 * f.get('shed_share', 0):5.1f}%  stale {100 * f.get('stale_share', 0):5.1f}%  "
                      f"app misses {f.get('app', {}).get('miss', 0)}", flush=True)
    print(save("write-cliff", {"index": args.index, "rate": args.rate, "seconds": args.seconds,
                               "bump_at": args.bump_at, "after": args.after, "runs": runs}))


if __name__ == "__main__":
    main()
