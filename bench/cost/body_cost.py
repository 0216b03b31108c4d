"""What two versions of the code cost Elasticsearch for the same queries: their search bodies, interleaved.

A ranking change adds clauses (names, factors); its price is Elasticsearch's time for the body
it builds, measured against the body the previous code builds for the same query, each on the
index its code built (a schema change means two indices). So each checkout dumps its bodies
(``dump``, run with that checkout first on ``PYTHONPATH`` and ``-P``, which keeps the current
directory and its ``services`` from coming before it; ``:.`` still finds this package), and
``compare`` sends the two dumps alternately, query by query in a shuffled order per round, with
``request_cache=false``, and reports Elasticsearch's ``took`` and the wall time of each, with their ratio,
and how often each side's first hit and first ten are the first side's (agreement, not quality).
The same dump sent to two indices of the same papers measures what the index costs (one force-merged
against one as an ingest left it, say).

The queries: the load mix's text queries from the corpus (titles, fragments, keywords, authors;
``bench/querymix.py``) and the named-paper queries (``bench/data/named_papers.toml``), lexical,
with the API's default facets, as :func:`services.search.query.semantic.build_ranked` builds them;
``--sample-on INDEX`` samples a broad search's facets as the service does (which needs the count).

    PYTHONPATH=<old checkout>:. python -P -m bench.cost.body_cost dump --out old.jsonl
    PYTHONPATH=<new checkout>:. python -P -m bench.cost.body_cost dump --out new.jsonl
    python -m bench.cost.body_cost compare old.jsonl:<old index> new.jsonl:<new index> [--rounds 3]
    python -m bench.cost.body_cost dump --out today.jsonl --sample-on full12
    python -m bench.cost.body_cost compare today.jsonl:full12 today.jsonl:full12m   # one segment's gain
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
import tomllib
from pathlib import Path

import requests

from bench.harness import BENCH_DATA, REPO, save
from bench.querymix import load_records, text_queries

DATA = BENCH_DATA / "named_papers.toml"


def queries(corpus: Path, n: int, seed: int) -> list[str]:
    mixed = [q for _, q in text_queries(load_records(corpus, step=8), n, seed)]
    named = [q for p in tomllib.loads(DATA.read_text(encoding="utf-8"))["paper"] for q in p["queries"]]
    return list(dict.fromkeys(mixed + named))


def sampled(session: requests.Session, es: str, index: str, req, body: dict) -> tuple[dict, int]:
    """``body`` as the service sends it (a broad search's facets sampled: :mod:`services.search.query.breadth`'s
    rule, the same count body) and how many papers it matches (to tell broad from narrow)."""
    from services.search.query.breadth import count_body, sample_share
    from services.search.query.search_body import sample_facets

    check = count_body(req, body)
    count = check or {"query": body["query"], "size": 0, "track_total_hits": True,
                      **({"post_filter": body["post_filter"]} if "post_filter" in body else {})}
    matched = session.post(f"{es}/{index}/_search", json=count, timeout=60).json()["hits"]["total"]["value"]
    return (sample_facets(body, sample_share(matched)) if check else body), matched


def dump(out: Path, corpus: Path, n: int, seed: int, es: str, sample_on: str | None = None) -> None:
    from services.search.query.request import parse_request
    from services.search.query.semantic import build_ranked

    session = requests.Session()
    with open(out, "w", encoding="utf-8") as fh:
        for q in queries(corpus, n, seed):
            req = parse_request({"q": [q]})
            body = build_ranked(req)
            if sample_on:
                body = sampled(session, es, sample_on, req, body)[0]
            fh.write(json.dumps({"q": q, "body": body}) + "\n")
    print(out)


def compare(es: str, sides: list[tuple[Path, str]], rounds: int, seed: int) -> dict:
    loaded = [{row["q"]: row["body"] for row in map(json.loads, path.open(encoding="utf-8"))} for path, _ in sides]
    common = [q for q in loaded[0] if all(q in side for side in loaded[1:])]
    session = requests.Session()
    took: list[list[float]] = [[] for _ in sides]
    wall: list[list[float]] = [[] for _ in sides]
    top: list[dict[str, list[str]]] = [{} for _ in sides]
    rng = random.Random(seed)
    for _ in range(rounds):
        for q in common:
            for i in rng.sample(range(len(sides)), len(sides)):
                start = time.perf_counter()
                resp = session.post(f"{es}/{sides[i][1]}/_search", params={"request_cache": "false"},
                                    data=json.dumps(loaded[i][q]), headers={"Content-Type": "application/json"},
                                    timeout=60)
                resp.raise_for_status()
                wall[i].append((time.perf_counter() - start) * 1000)
                answer = resp.json()
                took[i].append(answer["took"])
                top[i][q] = [h["_id"] for h in answer["hits"]["hits"][:10]]
    out = {"queries": len(common), "rounds": rounds, "sides": []}
    for (path, index), t, w, ids in zip(sides, took, wall, top):
        out["sides"].append({"dump": str(path), "index": index, "took_p50": statistics.median(t),
                             "took_mean": round(statistics.fmean(t), 2), "wall_p50": round(statistics.median(w), 2),
                             "wall_mean": round(statistics.fmean(w), 2),
                             "first_same": round(sum(ids[q][:1] == top[0][q][:1] for q in common) / len(common), 3),
                             "ten_same": round(sum(ids[q] == top[0][q] for q in common) / len(common), 3)})
    base = out["sides"][0]
    for side in out["sides"]:
        side["took_mean_ratio"] = round(side["took_mean"] / base["took_mean"], 3)
        side["wall_mean_ratio"] = round(side["wall_mean"] / base["wall_mean"], 3)
        print(f"{side['index']:<32} took p50 {side['took_p50']:6.1f} mean {side['took_mean']:6.1f} ms "
              f"({side['took_mean_ratio']:.2f}x)   wall p50 {side['wall_p50']:6.1f} mean {side['wall_mean']:6.1f} ms "
              f"({side['wall_mean_ratio']:.2f}x)   first same {side['first_same']:.3f} ten same {side['ten_same']:.3f}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    d = sub.add_parser("dump")
    d.add_argument("--out", type=Path, required=True)
    d.add_argument("--corpus", type=Path, default=REPO / ".." / "shared" / "data"
                   / "paperlists")
    d.add_argument("--n", type=int, default=200)
    d.add_argument("--seed", type=int, default=7)
    d.add_argument("--es", default="http://127.0.0.1:9200")
    d.add_argument("--sample-on", metavar="INDEX", help="sample broad searches' facets as the service does, "
                   "counting on this index")
    c = sub.add_parser("compare")
    c.add_argument("sides", nargs="+", help="DUMP:INDEX, the first is the baseline")
    c.add_argument("--es", default="http://127.0.0.1:9200")
    c.add_argument("--rounds", type=int, default=3)
    c.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.command == "dump":
        dump(args.out, args.corpus.resolve(), args.n, args.seed, args.es, args.sample_on)
    else:
        sides = [(Path(s.rpartition(":")[0]), s.rpartition(":")[2]) for s in args.sides]
        print(save("body-cost", compare(args.es, sides, args.rounds, args.seed)))


if __name__ == "__main__":
    main()
