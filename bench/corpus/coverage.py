"""What the sources hold against what an index shows, per conference-year.

For each conference-year: papers in the index, the share with a code link, papers whose
source has any affiliation against papers shown with one, and papers whose source has
review scores against papers shown with them. The source side is counted from the raw
records, independently of the normaliser (only the paper id is computed as ingest does,
so repeated ids count once).

    python3 -m bench.corpus.coverage --alias papers             # before
    python3 -m bench.corpus.coverage --alias w18-full           # after
    python3 -m bench.corpus.coverage --alias papers --alias w18-full  # side by side

Totals at the end: affiliations shown / papers whose source has any (all years, and the
conference-years below 95 %), review scores shown (papers stored with any criterion scored) / papers with scores in the source.
"""

from __future__ import annotations

import argparse
import math
import re
from collections import Counter, defaultdict
from pathlib import Path

from elasticsearch import helpers

from bench.harness import bench_settings, corpus_files, save
from services.indexer.paper.normalise import Rejected, identity
from services.indexer.sources import open_sources
from services.search.engine.client import make_client

# The review criteria the sources score (as ``<name>`` lists and ``<name>_avg`` means).
SCORE_FIELDS = ("rating", "confidence", "correctness", "soundness", "technical_novelty", "empirical_novelty",
                "contribution", "presentation", "excitement", "reproducibility", "suitability")
AFF_FIELDS = ("aff", "aff_unique_norm")
# What sources write for an unknown affiliation (the indexer's vocab lists them too): not an affiliation.
PLACEHOLDER = re.compile(r"^(?:(?:paper )?under double-blind review|n/?a|none|null|unknown|anonymous(?: institution)?"
                         r"|not provided(?: in the text)?|-+)$", re.IGNORECASE)


def _positive(value: object) -> bool:
    items = value if isinstance(value, list) else str(value).split(";") if value not in (None, "") else []
    for item in items[:1] if isinstance(value, list) else items:  # a list mean is [mean, deviation]
        try:
            number = float(item)
        except (TypeError, ValueError):
            return False
        if math.isfinite(number) and 0 < number <= 100:
            return True
    return False


def has_scores(record: dict) -> bool:
    return any(_positive(record.get(name)) or _positive(record.get(f"{name}_avg")) for name in SCORE_FIELDS)


def has_affiliation(record: dict) -> bool:
    for name in AFF_FIELDS:
        value = record.get(name)
        parts = value.split(";") if isinstance(value, str) else value if isinstance(value, list) else []
        if any(isinstance(p, str) and a.strip() and not PLACEHOLDER.match(a.strip())
               for p in parts for a in (p.split("+") if isinstance(p, str) else [])):
            return True
    return False


def source_counts(corpus: Path) -> dict[tuple[str, int], Counter]:
    out: dict[tuple[str, int], Counter] = defaultdict(Counter)
    seen: set[str] = set()
    for source_file in open_sources([str(f) for f in corpus_files(corpus)]):
        for raw in source_file.read().records:
            try:
                paper_id, conference, year = identity(raw.data, raw.origin)
            except Rejected:
                continue
            if paper_id in seen or not isinstance(raw.data, dict):
                continue
            seen.add(paper_id)
            row = out[(conference, year)]
            row["records"] += 1
            row["aff"] += has_affiliation(raw.data)
            row["scores"] += has_scores(raw.data)
    return out


def index_counts(es, alias: str) -> dict[tuple[str, int], Counter]:
    mapping = next(iter(es.indices.get_mapping(index=alias).body.values()))["mappings"]["properties"]
    filters = {"code": {"term": {"has_code": True}}, "aff": {"exists": {"field": "affiliations.raw"}}}
    resp = es.search(index=alias, size=0, aggs={"conf": {"terms": {"field": "conference", "size": 500}, "aggs": {
        "year": {"terms": {"field": "year", "size": 200}, "aggs": {"f": {"filters": {"filters": filters}}}}}}})
    out: dict[tuple[str, int], Counter] = {}
    for conf in resp["aggregations"]["conf"]["buckets"]:
        for year in conf["year"]["buckets"]:
            row = Counter(papers=year["doc_count"])
            row.update({name: b["doc_count"] for name, b in year["f"]["buckets"].items()})
            out[(conf["key"], int(year["key"]))] = row
    if "reviews" in mapping:  # any criterion scored (not only a rating): read from the stored papers
        for hit in helpers.scan(es, index=alias, size=5000, _source=["conference", "year", "reviews"],
                                query={"query": {"match_all": {}}}):
            source = hit["_source"]
            if source.get("reviews"):
                out[(source["conference"], int(source["year"]))]["scores"] += 1
    return out


def pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f}%" if whole else "    - "


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--alias", action="append", required=True, help="an index alias (repeat to compare)")
    parser.add_argument("--corpus", type=Path)
    parser.add_argument("--all", action="store_true", help="list every conference-year, not only those with data")
    args = parser.parse_args()
    settings = bench_settings()
    es = make_client(settings, request_timeout=120)
    source = source_counts(args.corpus or settings.corpus_dir)
    shown = {alias: index_counts(es, alias) for alias in args.alias}
    head = "".join(f" | {a[:14]:>14}: code   aff shown  scores shown" for a in args.alias)
    print(f"{'venue-year':16} {'records':>7} {'src aff':>7} {'src scores':>10}{head}")
    totals: dict[str, Counter] = {a: Counter() for a in args.alias}
    low: dict[str, list[str]] = {a: [] for a in args.alias}
    report = {"aliases": args.alias, "rows": []}
    for key in sorted(source):
        src = source[key]
        cells, row = [], {"venue_year": f"{key[0]}-{key[1]}", **src}
        for alias in args.alias:
            got = shown[alias].get(key, Counter())
            totals[alias].update(papers=got["papers"], code=got["code"], aff=min(got["aff"], src["aff"]),
                                 src_aff=src["aff"], scores=min(got["scores"], src["scores"]), src_scores=src["scores"])
            if src["aff"] and got["aff"] < 0.95 * src["aff"]:
                low[alias].append(f"{key[0]}-{key[1]} {got['aff']}/{src['aff']}")
            cells.append(f" | {'':14}  {pct(got['code'], got['papers'])} {pct(got['aff'], src['aff'])}"
                         f"      {pct(got['scores'], src['scores'])}")
            row[alias] = dict(got)
        report["rows"].append(row)
        if args.all or src["aff"] or src["scores"] or any(shown[a].get(key, {}).get("code") for a in args.alias):
            print(f"{key[0] + '-' + str(key[1]):16} {src['records']:7} {src['aff']:7} {src['scores']:10}{''.join(cells)}")
    for alias, t in totals.items():
        print(f"\n{alias}: papers {t['papers']:,}, with code {t['code']:,} ({pct(t['code'], t['papers']).strip()});"
              f" affiliations shown {t['aff']:,} of {t['src_aff']:,} whose source has any"
              f" ({pct(t['aff'], t['src_aff']).strip()}); review scores shown {t['scores']:,} of {t['src_scores']:,}"
              f" ({pct(t['scores'], t['src_scores']).strip()})")
        print(f"  conference-years below 95% of the source's affiliations: {len(low[alias])}"
              + (f" ({', '.join(low[alias][:12])}{' …' if len(low[alias]) > 12 else ''})" if low[alias] else ""))
        report[alias] = {"totals": dict(t), "aff_below_95": low[alias]}
    print(f"\nsaved {save('coverage', report)}")


if __name__ == "__main__":
    main()
