"""How derive_topics behaves on the real corpus: distribution, fallbacks, speed, agreement.

Agreement: some records carry a curated primary area or keywords ("Computer Vision",
"Machine Learning: Reinforcement Learning", "rendering"). LABEL_TOPICS (topic_labels.py) maps the
common, unambiguous ones to taxonomy topics; derive_topics is then run on the same
records with title and abstract ONLY (no keywords, no primary area, no venue) and we
count how often it finds the labelled topic. Broad labels ("Machine Learning",
"Multidisciplinary Topics and Applications") are deliberately left unmapped.

Usage: python -m bench.corpus.topics_report [--corpus DIR] [--limit N] [--show SLUG] [--misses SLUG]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bench.corpus.topic_labels import label_topics
from bench.harness import REPO
from services.indexer.cleaning.text import clean_text
from services.indexer.paper.topics import derive_topics, explain, venue_prior
from services.indexer.sources import Rejected, open_sources
from services.search.catalogue.taxonomy import FALLBACK, TOPICS


@dataclass(frozen=True)
class Record:
    conference: str
    title: str
    abstract: str
    keywords: list[str]
    primary_area: str


def load(corpus: Path) -> Iterator[Record]:
    """Every record of the corpus through the source readers (folder name as conference)."""
    for source in open_sources([str(corpus)]):
        read = source.read()
        for raw in read.records:
            try:
                row = source.reader.fields(raw.data)
            except Rejected:
                continue
            yield Record(Path(read.location).parent.name, str(row.key.title or ""), row.abstract,
                         [k for k in map(clean_text, row.keywords) if k], row.primary_area.strip())


def _pct(part: float, whole: float) -> str:
    return f"{100 * part / whole:5.1f}%" if whole else "   n/a"


def report(records: list[Record], show: str | None, misses: str | None) -> None:
    n = len(records)
    topics_of: list[list[str]] = []
    sources: Counter[str] = Counter()
    durations: list[int] = []
    for r in records:
        start = time.perf_counter_ns()
        topics = derive_topics(r.title, r.abstract, r.keywords, r.primary_area, r.conference)
        durations.append(time.perf_counter_ns() - start)
        topics_of.append(topics)
    for r in records:
        sources[explain(r.title, r.abstract, r.keywords, r.primary_area, r.conference).source] += 1

    any_count = Counter(t for ts in topics_of for t in ts)
    first_count = Counter(ts[0] for ts in topics_of)
    print(f"records: {n}   conferences: {len({r.conference for r in records})}")
    print(f"time per record: mean {statistics.fmean(durations) / 1000:.1f} us, "
          f"median {statistics.median(durations) / 1000:.1f} us, "
          f"p99 {sorted(durations)[int(0.99 * (n - 1))] / 1000:.1f} us "
          f"(first call includes the one-off regex build)")
    print(f"topics per paper: mean {statistics.fmean(map(len, topics_of)):.2f}   "
          + "  ".join(f"{k}: {_pct(v, n)}"
                      for k, v in sorted(Counter(map(len, topics_of)).items())))
    print(f"only the fallback ({FALLBACK}): {sources['fallback']} "
          f"({_pct(sources['fallback'], n).strip()})   only the venue prior: {sources['prior']} "
          f"({_pct(sources['prior'], n).strip()})   text plus venue prior: "
          f"{sources['text+prior']} ({_pct(sources['text+prior'], n).strip()})   "
          f"text alone: {sources['text']} ({_pct(sources['text'], n).strip()})")
    print(f"\n{'topic':38} {'papers':>7} {'% corpus':>9} {'as 1st':>7}")
    for t in TOPICS:
        print(f"{t.slug:38} {any_count[t.slug]:7d} {_pct(any_count[t.slug], n):>9} "
              f"{first_count[t.slug]:7d}")

    venues(records, topics_of)
    agreement(records)
    rng = random.Random(7)
    if show:
        picks = [r for r, ts in zip(records, topics_of, strict=True) if show in ts]
        print(f"\n--- sample of {show} ({len(picks)}) ---")
        for r in rng.sample(picks, min(40, len(picks))):
            ts = derive_topics(r.title, r.abstract, r.keywords, r.primary_area, r.conference)
            print(f"  [{r.conference}] {r.title[:110]}  -> {ts}")
    if misses:
        print(f"\n--- labelled {misses} but not found from title+abstract ---")
        picks = [r for r in records if misses in label_topics(r.primary_area, r.keywords)]
        picks = [r for r in picks if misses not in derive_topics(r.title, r.abstract, [], "", "")]
        for r in rng.sample(picks, min(40, len(picks))):
            print(f"  [{r.conference}] {r.title[:110]}  -> "
                  f"{derive_topics(r.title, r.abstract, [], '', '')}")


def venues(records: list[Record], topics_of: list[list[str]]) -> None:
    """Share of each venue with a home area that carries it, from text alone and in the end."""
    print(f"\n{'venue':13} {'papers':>6} {'home area':38} {'text only':>9} {'final':>6}")
    by_venue: dict[str, list[int]] = {}
    for i, r in enumerate(records):
        by_venue.setdefault(r.conference, []).append(i)
    for venue, rows in sorted(by_venue.items(), key=lambda kv: -len(kv[1])):
        home = venue_prior(venue)
        if not home:
            continue
        text = sum(home in derive_topics(records[i].title, records[i].abstract, records[i].keywords,
                                         records[i].primary_area, "") for i in rows)
        final = sum(home in topics_of[i] for i in rows)
        print(f"{venue:13} {len(rows):6d} {home:38} {_pct(text, len(rows)):>9} "
              f"{_pct(final, len(rows)):>6}")


def agreement(records: list[Record]) -> None:
    labelled = [(r, frozenset(label_topics(r.primary_area, r.keywords))) for r in records]
    labelled = [(r, e) for r, e in labelled if e]
    m = len(labelled)
    print(f"\nagreement with curated labels: {m} records have a primary area or keyword "
          f"mapped to topics; derive_topics sees title+abstract only")
    for venue in (False, True):
        hit = top1 = 0
        groups: dict[frozenset[str], list[int]] = {}
        predicted: Counter[str] = Counter()
        correct: Counter[str] = Counter()
        for r, expected in labelled:
            got = derive_topics(r.title, r.abstract, [], "", r.conference if venue else "")
            agree = bool(expected & set(got))
            hit += agree
            top1 += got[0] in expected
            group = groups.setdefault(expected, [0, 0])
            group[0] += 1
            group[1] += agree
            for t in got:
                predicted[t] += 1
                correct[t] += t in expected
        precision = sum(correct.values()) / max(1, sum(predicted.values()))
        print(f"\n{'with venue prior' if venue else 'text only (no venue)'}: "
              f"a labelled topic among the (up to 3) derived: {_pct(hit, m).strip()}   "
              f"derived first topic is a labelled one: {_pct(top1, m).strip()}   "
              f"derived topics that are labelled ones: {precision:.1%}")
        if venue:
            continue
        print(f"  {'labelled as':62} {'records':>7} {'agree':>6}")
        for expected, (count, agree) in sorted(groups.items(), key=lambda kv: -kv[1][0]):
            if count >= 30:
                print(f"  {' | '.join(sorted(expected))[:62]:62} {count:7d} "
                      f"{_pct(agree, count):>6}")
        print(f"  {'derived topic':38} {'derived':>7} {'labelled so':>11}")
        for t in TOPICS:
            if predicted[t.slug] >= 20:
                print(f"  {t.slug:38} {predicted[t.slug]:7d} "
                      f"{_pct(correct[t.slug], predicted[t.slug]):>11}")
    print("  ('labelled so' is a lower bound: papers carry up to 3 topics, labels usually "
          "name one area)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=REPO.parent / "shared/data/paperlists",
                        help="folder of <conf>/<conf><year>.json[.gz] (default: %(default)s)")
    parser.add_argument("--limit", type=int, default=0, help="random sample of N records")
    parser.add_argument("--show", metavar="SLUG", help="print sample papers given SLUG")
    parser.add_argument("--misses", metavar="SLUG",
                        help="print labelled SLUG papers that title+abstract do not tag SLUG")
    args = parser.parse_args(argv)
    records = list(load(args.corpus))
    if not records:
        print(f"no records under {args.corpus}", file=sys.stderr)
        return 1
    if args.limit:
        records = random.Random(1).sample(records, min(args.limit, len(records)))
    report(records, args.show, args.misses)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
