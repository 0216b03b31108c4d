"""Named papers: success@3 and MRR@20 of the queries people type for a known set of papers (bench/data/named_papers.toml).

Issue 29's public set: fifteen famous papers, each typed by its nickname ("maml", "vq-vae"),
its nickname and an author ("nas zoph le"), or words of its title. Each query goes through the
JSON API (the real app, result cache off), lexical and hybrid; the paper's rank in the top 20
is reported per query. A measurement of that set, not a tuning set: the generated nickname
classes of bench/relevance/known_item.py are the general figure.

    python -m bench.relevance.named_papers [--index papers] [--mode lexical --mode hybrid]
"""

from __future__ import annotations

import argparse
import tomllib

from bench.harness import BENCH_DATA, ranking_app, save
from services.search.catalogue import venues
from services.search.records.model import title_key

DATA = BENCH_DATA / "named_papers.toml"
TOP = 20


def paper_id(es, index: str, paper: dict) -> str:
    filters = [{"term": {"title_key": title_key(paper["title"])}}, {"term": {"year": paper["year"]}},
               {"term": {"conference": venues.canonical_slug(paper["venue"])}}]
    hits = es.search(index=index, size=1, query={"bool": {"filter": filters}})["hits"]["hits"]
    if not hits:
        raise SystemExit(f"not in {index}: {paper['title']} ({paper['venue']} {paper['year']})")
    return hits[0]["_id"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--index", default=None, help="alias to test (default: PAPERLIST_INDEX)")
    parser.add_argument("--mode", action="append", help="lexical, semantic or hybrid (repeatable; default both)")
    args = parser.parse_args()
    settings, client, es = ranking_app(args.index)
    papers = tomllib.loads(DATA.read_text(encoding="utf-8"))["paper"]
    wanted = [(paper_id(es, settings.index, p), q) for p in papers for q in p["queries"]]
    result: dict = {"index": settings.index, "modes": {}}
    for mode in args.mode or ["lexical", "hybrid"]:
        ranks = []
        for want, q in wanted:
            resp = client.get("/api/v1/search", query_string={"q": q, "page_size": TOP, "mode": mode, "facets": ""})
            ids = [h["id"] for h in resp.get_json()["hits"]] if resp.status_code == 200 else []
            ranks.append((q, ids.index(want) + 1 if want in ids else 0))
        s3 = sum(1 for _, r in ranks if 0 < r <= 3) / len(ranks)
        mrr = sum(1 / r for _, r in ranks if r) / len(ranks)
        result["modes"][mode] = {"success@3": round(s3, 3), "mrr@20": round(mrr, 3), "ranks": ranks}
        print(f"{mode:<8} {len(ranks)} queries  success@3 {s3:.3f}  MRR@20 {mrr:.3f}")
        print("   " + "  ".join(f"{q}={r or '-'}" for q, r in ranks))
    print(save("named-papers", result))


if __name__ == "__main__":
    main()
