"""Known-item search: searching a paper's exact title must put that paper first.

Picks N random indexed papers (seeded, so runs compare) and sends each title through the
JSON API (the real Flask app and query builder) exactly as a user would paste it.
Reports the share found at rank 1 and in the top 3, and lists the misses.

    python bench/known_item.py [--index papers] [--n 500] [--seed 7] [--mode hybrid]
"""

from __future__ import annotations

import argparse
import sys

from harness import save
from services.search.client import make_client
from services.settings import load_settings
from services.web.app import create_app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--index", default=None, help="alias to test (default: PAPERLIST_INDEX)")
    parser.add_argument("--n", type=int, default=500)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--mode", default="lexical", help="ranking: lexical, semantic or hybrid")
    args = parser.parse_args()

    settings = load_settings(**({"PAPERLIST_INDEX": args.index} if args.index else {}))
    app = create_app(settings)
    es = make_client(settings)
    sample = es.search(index=settings.index, size=args.n, _source=["title", "paper_id", "status"],
                       query={"function_score": {"random_score": {"seed": args.seed, "field": "_seq_no"}}})
    papers = [h["_source"] for h in sample["hits"]["hits"]]
    client = app.test_client()
    first = top3 = 0
    misses = []
    for paper in papers:
        params = {"q": paper["title"][:500], "page_size": 3, "mode": args.mode}
        if paper["status"] in ("reject", "withdrawn"):
            params["status"] = paper["status"]  # hidden by default: the user would select them
        hits = client.get("/api/v1/search", query_string=params).get_json()["hits"]
        ids = [h["id"] for h in hits]
        if ids[:1] == [paper["paper_id"]]:
            first += 1
        else:
            misses.append({"title": paper["title"], "id": paper["paper_id"],
                           "got": [(h["id"], h["title"]) for h in hits[:2]]})
        top3 += paper["paper_id"] in ids
    n = len(papers)
    total = es.count(index=settings.index)["count"]
    result = {"index": settings.index, "mode": args.mode, "papers_in_index": total, "queries": n, "seed": args.seed,
              "first": first, "first_pct": round(100 * first / n, 2), "top3_pct": round(100 * top3 / n, 2),
              "misses": misses}
    path = save("known-item", result)
    for miss in misses:
        print(f"miss: {miss['title'][:90]!r} -> {miss['got'][0][1][:60] if miss['got'] else None!r}", file=sys.stderr)
    print(f"{n} exact-title searches (mode={args.mode}) over {total:,} papers: first {100 * first / n:.1f}%, "
          f"top-3 {100 * top3 / n:.1f}%  ({path})")


if __name__ == "__main__":
    main()
