"""What ranking in two phases would save Elasticsearch: today's search body against rescore variants.

Issue 52 asked whether the known-item ``function_score`` over every match is the floor of a search's
cost, so that a cheap first phase (the text query alone) and the factors as a ``rescore`` of the top
window would halve it. This measures it before building it: each query's body as the service builds
it today (facets sampled as the service samples a broad search's), and the same body rewritten as

- ``no_aggs`` / ``no_aggs_bounded``: without the facet counts (exact total / total bounded at 1,000): what
  the counts cost, and whether a bounded total lets Elasticsearch skip non-competitive matches;
- ``rescore_full<W>``: phase 1 the text query, phase 2 today's whole query over the top W (the text run again);
- ``rescore_mult<W>``: phase 1 the text query, phase 2 the factors and the prior multiplied onto it over
  the top W (scores in the window equal today's; the text is not run again); ``…_entry`` adds the title
  and name factors' filters to phase 1 so a named paper enters the window;
- ``…_split``: the hits (total bounded, no aggregations) and the counts (size 0, filter context) as two
  searches of one ``_msearch``: its cost is the sum of both ``took``;
- ``rescore_text<W>``: phase 1 only the required words (and the typed word's prefixes), the exact-word and
  proximity boosts a rescore of the top W, then the factors and the prior; ``…_entry`` / ``…_all`` lift the
  papers of the title and name factors' filters / of every factor's into the window (a constant that a
  second rescore takes off again, so scores in the window equal today's);
- ``words_only``, ``no_highlight`` and both with ``no_aggs``: what the ranking beyond the words, the
  highlighting and the counts each cost (a floor, not rankings).

docs/ranking.md ("One phase, measured against two") has the figures and why the search stays in one phase.

Each is sent interleaved with today's, query by query in a shuffled order per round, with
``request_cache=false``; printed: ``took`` p50 and mean, their ratio to today's, the broad (>= 100k
matches) over narrow (< 1k) p50 ratio, and how often the first hit and the first ten are today's
(agreement, not quality: ``bench.relevance.known_item`` judges a change that ships). Relevance sort
only (a rescore takes no ``sort``: the year and paper-id tie-breakers go).

    python -m bench.cost.two_phase --index full --rounds 2 [--n 200]

Today's bodies on two indices of the same papers (one force-merged, say) are ``bench.cost.body_cost``'s
``dump --sample-on`` and ``compare``.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import statistics
from collections.abc import Callable
from pathlib import Path

import requests

from bench.cost.body_cost import queries, sampled
from bench.harness import REPO, save

BROAD = ("learning", "neural", "model", "deep learning", "network", "data", "graph", "reinforcement learning",
         "language models", "optimization")
NAMED_WEIGHT = 4.0  # the factors whose filters name a paper (title, name): phase 1's entry clause reads these
ENTRY_BOOST = 50.0
BOUND = 1000


def body_of(q: str):
    """The request and the search body the service builds for ``q``."""
    from services.search.query.request import parse_request
    from services.search.query.semantic import build_ranked

    req = parse_request({"q": [q]})
    return req, build_ranked(req)


def ranking(body: dict) -> tuple[dict, list[dict], list[dict]] | None:
    """(the text query, the known-item functions, the prior's functions) of a relevance body, or None."""
    outer = body["query"]["bool"]["must"][0].get("function_score")
    if not outer or "knn" in body:
        return None
    inner = outer["query"]
    if "function_score" in inner:
        return inner["function_score"]["query"], inner["function_score"]["functions"], outer["functions"]
    return inner, [], outer["functions"]


def rescore_full(body: dict, window: int) -> dict:
    parts = ranking(body)
    if parts is None:
        return body
    out = copy.deepcopy(body)
    out["query"]["bool"]["must"] = [parts[0]]
    out.pop("sort", None)
    out["rescore"] = {"window_size": window, "query": {
        "rescore_query": body["query"]["bool"]["must"][0], "query_weight": 0, "rescore_query_weight": 1}}
    return out


def factors_rescorer(factors: list[dict], prior: list[dict], window: int) -> dict:
    """The known-item factors and the prior, multiplied onto the top ``window``'s scores."""
    inner: dict = {"match_all": {}}
    if factors:
        inner = {"function_score": {"query": inner, "functions": factors, "score_mode": "multiply",
                                    "boost_mode": "replace"}}
    phase2 = {"function_score": {"query": inner, "functions": prior, "score_mode": "sum", "boost_mode": "multiply"}}
    return {"window_size": window, "query": {"rescore_query": phase2, "query_weight": 1, "rescore_query_weight": 1,
                                             "score_mode": "multiply"}}


def lifted(factors: list[dict], lift: str) -> list[dict]:
    """The factors' filters whose papers phase 1 lifts into the window: none, the title and name ones, or all."""
    floor = {"": float("inf"), "named": NAMED_WEIGHT, "all": 0.0}[lift]
    return [f["filter"] for f in factors if f["weight"] >= floor]


def rescore_mult(body: dict, window: int, lift: str = "") -> dict:
    parts = ranking(body)
    if parts is None:
        return body
    text, factors, prior = parts
    out = copy.deepcopy(body)
    first = text
    named = lifted(factors, lift)
    if named:
        first = {"bool": {"must": [text], "should": [
            {"constant_score": {"filter": {"bool": {"should": named}}, "boost": ENTRY_BOOST}}]}}
    out["query"]["bool"]["must"] = [first]
    out.pop("sort", None)
    out["rescore"] = factors_rescorer(factors, prior, window)
    return out


def rescore_text(body: dict, window: int, lift: str = "") -> dict:
    """Phase 1 the text query's required words and the typed word's prefixes (they lift titles the words alone
    rank far down: "GeometrySticker" for ``geometry``); over the top ``window``: the exact-word and proximity
    boosts added, then the factors and the prior multiplied (scores in the window equal today's). ``lift``: the
    factors' filters (:func:`lifted`) lift their papers into the window by a constant a second rescore takes off."""
    parts = ranking(body)
    if parts is None or "bool" not in parts[0]:
        return rescore_mult(body, window)
    text, factors, prior = parts
    words = text["bool"]
    later = [c for c in words.get("should", []) if "prefix" not in json.dumps(c)]
    kept = [c for c in words.get("should", []) if c not in later]
    named = lifted(factors, lift)
    entry = {"constant_score": {"filter": {"bool": {"should": named}}, "boost": ENTRY_BOOST}}
    first = {k: v for k, v in words.items() if k != "should"}
    if kept or named:
        first["should"] = kept + ([entry] if named else [])
    out = copy.deepcopy(body)
    out["query"]["bool"]["must"] = [{"bool": first}]
    out.pop("sort", None)
    rescorers = []
    if later:
        rescorers.append({"window_size": window, "query": {"rescore_query": {"bool": {"should": later}},
                                                           "query_weight": 1, "rescore_query_weight": 1}})
    if named:
        rescorers.append({"window_size": window, "query": {"rescore_query": entry, "query_weight": 1,
                                                           "rescore_query_weight": -1}})
    out["rescore"] = [*rescorers, factors_rescorer(factors, prior, window)]
    return out


def words_only(body: dict) -> dict:
    """The floor of any ranking: the text query's required words alone (no boosts, factors or prior)."""
    parts = ranking(body)
    if parts is None or "bool" not in parts[0]:
        return body
    out = copy.deepcopy(body)
    out["query"]["bool"]["must"] = [{"bool": {k: v for k, v in parts[0]["bool"].items() if k != "should"}}]
    return out


def no_highlight(body: dict) -> dict:
    return {k: v for k, v in body.items() if k != "highlight"}


def no_aggs(body: dict, bound: bool = False) -> dict:
    out = {k: v for k, v in body.items() if k != "aggs"}
    return {**out, "track_total_hits": BOUND} if bound else out


def split(body: dict) -> list[dict]:
    """The hits (bounded total, no aggregations) and the counts (size 0, filter context, the aggregations)."""
    counts = {"size": 0, "track_total_hits": True, "query": {"bool": {"filter": [body["query"]]}}}
    counts.update({k: body[k] for k in ("aggs", "post_filter") if k in body})
    return [no_aggs(body, bound=True), counts]


VARIANTS: dict[str, Callable[[dict], dict | list[dict]]] = {
    "today": lambda b: b,
    "no_aggs": no_aggs,
    "no_aggs_bounded": lambda b: no_aggs(b, bound=True),
    "rescore_full500": lambda b: rescore_full(b, 500),
    "rescore_mult200": lambda b: rescore_mult(b, 200),
    "rescore_mult500": lambda b: rescore_mult(b, 500),
    "rescore_mult500_entry": lambda b: rescore_mult(b, 500, lift="named"),
    "rescore_mult500_hits_bounded": lambda b: no_aggs(rescore_mult(b, 500), bound=True),
    "rescore_mult500_split": lambda b: split(rescore_mult(b, 500)),
    "words_only": words_only,
    "no_highlight": no_highlight,
    "words_only_no_aggs_no_highlight": lambda b: no_highlight(no_aggs(words_only(b))),
    "rescore_text500": lambda b: rescore_text(b, 500),
    "rescore_text500_entry": lambda b: rescore_text(b, 500, lift="named"),
    "rescore_text500_all": lambda b: rescore_text(b, 500, lift="all"),
    "rescore_text200_all": lambda b: rescore_text(b, 200, lift="all"),
}


def send(session: requests.Session, es: str, index: str, body: dict | list[dict]) -> tuple[float, list[str]]:
    """Elasticsearch's ``took`` (summed over an msearch's searches) and the first ten hits' ids."""
    if isinstance(body, list):
        lines = "".join(json.dumps({"index": index, "request_cache": False}) + "\n" + json.dumps(b) + "\n"
                        for b in body)
        resp = session.post(f"{es}/_msearch", data=lines, headers={"Content-Type": "application/x-ndjson"},
                            timeout=60)
        resp.raise_for_status()
        answers = resp.json()["responses"]
        bad = [a["error"] for a in answers if "error" in a]
        if bad:
            raise RuntimeError(bad[0])
        return sum(a["took"] for a in answers), [h["_id"] for h in answers[0]["hits"]["hits"][:10]]
    resp = session.post(f"{es}/{index}/_search", params={"request_cache": "false"}, json=body, timeout=60)
    resp.raise_for_status()
    data = resp.json()
    return data["took"], [h["_id"] for h in data["hits"]["hits"][:10]]


def run(es: str, index: str, corpus: Path, n: int, rounds: int, seed: int, only: list[str]) -> dict:
    session = requests.Session()
    texts = list(dict.fromkeys([*queries(corpus, n, seed), *BROAD]))
    rows = [sampled(session, es, index, *body_of(q)) for q in texts]
    names = ["today", *[v for v in VARIANTS if v != "today" and (not only or v in only)]]
    bodies = {name: [VARIANTS[name](body) for body, _ in rows] for name in names}
    took: dict[str, list[list[float]]] = {name: [[] for _ in rows] for name in names}
    top: dict[str, list[list[str]]] = {name: [[] for _ in rows] for name in names}
    rng = random.Random(seed)
    for _ in range(rounds):
        for i in range(len(rows)):
            for name in rng.sample(names, len(names)):
                ms, ids = send(session, es, index, bodies[name][i])
                took[name][i].append(ms)
                top[name][i] = ids
    broad = [i for i, (_, m) in enumerate(rows) if m >= 100_000]
    narrow = [i for i, (_, m) in enumerate(rows) if m < 1_000]
    base = statistics.fmean(t for per in took["today"] for t in per)
    out = {"index": index, "queries": len(rows), "broad": len(broad), "narrow": len(narrow), "rounds": rounds,
           "variants": {}}
    for name in names:
        flat = [t for per in took[name] for t in per]
        per_query = [statistics.median(per) for per in took[name]]
        row = {"took_p50": statistics.median(flat), "took_mean": round(statistics.fmean(flat), 2),
               "ratio_mean": round(statistics.fmean(flat) / base, 3),
               "first_same": round(sum(top[name][i][:1] == top["today"][i][:1] for i in range(len(rows))) / len(rows), 3),
               "ten_same": round(sum(top[name][i] == top["today"][i] for i in range(len(rows))) / len(rows), 3)}
        if broad and narrow:
            row["broad_over_narrow_p50"] = round(statistics.median(per_query[i] for i in broad)
                                                 / max(statistics.median(per_query[i] for i in narrow), 0.5), 2)
        out["variants"][name] = row
        print(f"{name:30} took p50 {row['took_p50']:6.1f} mean {row['took_mean']:6.1f} ({row['ratio_mean']:.2f}x)"
              f"  broad/narrow {row.get('broad_over_narrow_p50', '-')}  first same {row['first_same']:.3f}"
              f"  ten same {row['ten_same']:.3f}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--es", default="http://127.0.0.1:9200")
    ap.add_argument("--index", default="papers")
    ap.add_argument("--corpus", type=Path, default=REPO / ".." / "shared" / "data" / "paperlists")
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--only", nargs="*", default=[], help="variants besides today's (default: all)")
    args = ap.parse_args()
    print(save("two-phase", run(args.es, args.index, args.corpus.resolve(), args.n, args.rounds, args.seed,
                                args.only)))


if __name__ == "__main__":
    main()
