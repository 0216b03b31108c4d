"""Known-item search: the paper a person means must come first, however they type it.

For random visible papers (seeded, so runs compare) it makes one query per class of
:mod:`bench.relevance.known_cases` — the exact title, the name before a colon, the first 3-5 words, the
title's three rarest words plus an author's surname, the title with one typo, the first
words cut mid-word — and, from :mod:`bench.relevance.nicknames`, the names other abstracts cite papers by
("CycleGAN (Zhu et al., 2017)": ``cyclegan``, ``cyclegan zhu``), and sends each through the JSON API (the real Flask app and query
builder, result cache off) exactly as typed. It reports, per class and ranking mode, MRR
over the top 10, success@1 and success@3, how many papers a class skipped because its
query could not tell them apart, and a few misses to look at.

    python -m bench.relevance.known_item [--index papers] [--n 300] [--seed 7] [--mode lexical --mode hybrid]
                               [--class name --class typo] [--from acl:2026 --from cvpr]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence

from elasticsearch import helpers

from bench.harness import ranking_app, save
from bench.relevance.known_cases import CLASSES as TITLE_CLASSES
from bench.relevance.known_cases import Case, Score, Target, TitleIndex, cases, rank_of
from bench.relevance.nicknames import CLASSES as NICKNAME_CLASSES
from bench.relevance.nicknames import cases as nickname_cases
from services.search.catalogue import HIDDEN_STATUSES

TOP = 10
MISSES_SHOWN = 8
CLASSES = TITLE_CLASSES + NICKNAME_CLASSES


def visible_papers(es, index: str) -> list[dict]:
    """Every listed paper's id, title, authors, status, conference and year, in a stable order."""
    fields = ["paper_id", "title", "author_names", "status", "conference", "year"]
    docs = [h["_source"] for h in helpers.scan(es, index=index, _source=fields, size=5000,
                                                query={"query": {"bool": {"must_not": [
                                                    {"terms": {"status": list(HIDDEN_STATUSES)}}]}}})]
    return sorted(docs, key=lambda d: d["paper_id"])


def chosen(docs: Sequence[dict], scopes: Sequence[str]) -> list[dict]:
    """The papers of the ``conference[:year]`` scopes (all when none)."""
    if not scopes:
        return list(docs)
    wanted = [(s.partition(":")[0].lower(), s.partition(":")[2]) for s in scopes]
    return [d for d in docs if any(d["conference"] == c and (not y or str(d["year"]) == y) for c, y in wanted)]


def evaluate(client, docs: Sequence[dict], *, classes: Sequence[str] = TITLE_CLASSES, modes: Sequence[str] = ("lexical",),
             n: int = 300, seed: int = 7, scopes: Sequence[str] = (),
             extra: dict[str, tuple[list[Case], int]] | None = None) -> dict:
    """Scores per mode and class, the skipped counts and some misses (what the CLI prints and tests assert);
    ``extra``: cases made elsewhere (:mod:`bench.relevance.nicknames`), by class."""
    index = TitleIndex(d["title"] for d in docs)
    pool = chosen(docs, scopes)
    random.Random(seed).shuffle(pool)
    targets = [Target(d["paper_id"], d["title"], tuple(d.get("author_names") or ()), d["status"]) for d in pool]
    made = {kind: cases(kind, targets, index, n, seed) for kind in classes if kind in TITLE_CLASSES}
    made.update(extra or {})
    out: dict = {"seed": seed, "papers": len(docs), "pool": len(pool), "modes": {}}
    for mode in modes:
        out["modes"][mode] = {}
        for kind, (class_cases, skipped) in made.items():
            ranks, misses, errors = [], [], 0
            for case in class_cases:
                ids, ok = search_ids(client, case, mode)
                errors += not ok
                rank = rank_of(case.target.paper_id, ids)
                ranks.append(rank)
                if rank != 1 and len(misses) < MISSES_SHOWN:
                    misses.append({"query": case.query, "want": case.target.title, "rank": rank})
            out["modes"][mode][kind] = {**Score(ranks).summary(), "skipped": skipped, "errors": errors,
                                        "misses": misses}
    return out


def search_ids(client, case: Case, mode: str) -> tuple[list[str], bool]:
    # No facets: ranking is what is measured, and counting them is most of a search's cost.
    resp = client.get("/api/v1/search", query_string={"q": case.query, "page_size": TOP, "mode": mode, "facets": ""})
    if resp.status_code != 200:
        return [], False
    return [h["id"] for h in resp.get_json()["hits"]], True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--index", default=None, help="alias to test (default: PAPERLIST_INDEX)")
    parser.add_argument("--n", type=int, default=300, help="queries per class")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--mode", action="append", help="lexical, semantic or hybrid (repeatable; default lexical)")
    parser.add_argument("--class", dest="classes", action="append", choices=CLASSES, help="default: every class")
    parser.add_argument("--from", dest="scopes", action="append", default=[],
                        help="draw the papers from conference[:year] only (repeatable)")
    args = parser.parse_args()

    settings, client, es = ranking_app(args.index)
    docs = visible_papers(es, settings.index)
    classes = args.classes or CLASSES
    extra = None
    if any(kind in NICKNAME_CLASSES for kind in classes):
        extra = {kind: found for kind, found in nickname_cases(es, settings.index, chosen(docs, args.scopes), args.n,
                                                               args.seed).items() if kind in classes}
    result = evaluate(client, docs, classes=classes, modes=args.mode or ["lexical"],
                      n=args.n, seed=args.seed, scopes=args.scopes, extra=extra)
    result.update(index=settings.index, scopes=args.scopes)
    path = save("known-item", result)
    print(f"{len(docs):,} listed papers in {settings.index}; {result['pool']:,} to draw from; seed {args.seed}")
    print(f"{'mode':<9}{'class':<13}{'n':>5}{'skip':>6}{'MRR':>7}{'s@1':>7}{'s@3':>7}{'err':>5}")
    for mode, classes in result["modes"].items():
        for kind, row in classes.items():
            print(f"{mode:<9}{kind:<13}{row['n']:>5}{row['skipped']:>6}{row['mrr']:>7.3f}{row['success@1']:>7.3f}"
                  f"{row['success@3']:>7.3f}{row['errors']:>5}")
            for miss in row["misses"][:3]:
                print(f"    miss (rank {miss['rank'] or '>10'}): {miss['query'][:70]!r} -> want "
                      f"{miss['want'][:60]!r}", file=sys.stderr)
    print(path)


if __name__ == "__main__":
    main()
