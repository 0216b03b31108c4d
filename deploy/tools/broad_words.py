#!/usr/bin/env python3
"""Write the words a one-word search may match too many papers by (``services/search/query/broad_words.txt``).

A search of one content word is counted before it runs, to tell whether its facets are counted
on a sample (:mod:`services.search.query.breadth`): a round trip of its own, which most such
words did not need ("CAPTCHA", "sensitivity": a few thousand papers at most). The list this
writes is the words whose one-word search matches more than half the sampling line
(``SAMPLE_FACETS_ABOVE``) under any filters (counted exactly by the query the service sends,
every status included): only those are counted first. The half is the margin for ingests to come.

Candidates are the words of the searched fields (titles, abstracts, keywords, topics, authors,
affiliations, TL;DRs: any word at all, case-folded) written by at least ``--floor`` papers; a
word with fewer cannot match many papers unless its stem does, so the floor is low. A word
missing from the list is counted exactly, never wrongly: at worst a rare spelling of a broad
stem has its facets counted over every match (slower, as every search was before sampling).

Usage (against an index of the full corpus)::

    PAPERLIST_INDEX=full python deploy/tools/broad_words.py
"""

from __future__ import annotations

import argparse
import bisect
import re
import sys
from collections import Counter
from pathlib import Path

from elasticsearch import Elasticsearch, helpers

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from services.search.limits import SAMPLE_FACETS_ABOVE  # noqa: E402
from services.search.query.breadth import BROAD_WORDS  # noqa: E402
from services.search.query.request import parse_request  # noqa: E402
from services.search.query.semantic import build_ranked  # noqa: E402
from services.settings import load_settings  # noqa: E402

FIELDS = ("title", "abstract", "keywords", "topic_labels", "author_names", "affiliations", "tldr")
_WORD = re.compile(r"\w+")
BATCH = 200  # searches per _msearch
ANALYZE_BATCH = 5000  # words per _analyze
ANALYZER = "english_text"  # the searched text fields' (services.search.records.schema)


def document_frequencies(es: Elasticsearch, index: str) -> Counter:
    """How many papers write each word (case-folded) in a searched field."""
    df: Counter = Counter()
    for n, hit in enumerate(helpers.scan(es, index=index, query={"_source": list(FIELDS)}, size=2000), 1):
        words: set[str] = set()
        for name in FIELDS:
            value = hit["_source"].get(name)
            for text in value if isinstance(value, list) else [value]:
                if isinstance(text, str):
                    words.update(_WORD.findall(text.casefold()))
        df.update(words)
        if n % 50_000 == 0:
            print(f"  {n:,} papers read", file=sys.stderr)
    return df


def match_counts(es: Elasticsearch, index: str, words: list[str]) -> dict[str, int]:
    """How many papers each word matches as a one-word search, whatever the filters (none: every status)."""
    counts = {}
    for start in range(0, len(words), BATCH):
        batch = words[start:start + BATCH]
        searches = []
        for word in batch:
            req = parse_request({"q": [word]}, allow_search_after=True)
            searches += [{"index": index}, {"query": build_ranked(req)["query"], "size": 0, "track_total_hits": True}]
        for word, answer in zip(batch, es.msearch(searches=searches)["responses"]):
            if "error" in answer:
                raise SystemExit(f"error: counting {word!r}: {answer['error']}")
            counts[word] = answer["hits"]["total"]["value"]
    return counts


def stems(es: Elasticsearch, index: str, words: list[str]) -> dict[str, set[str]]:
    """Each word's tokens as the text fields' analyzer makes them (hunspell may give two: "modeler": modeler, model)."""
    out: dict[str, set[str]] = {}
    for start in range(0, len(words), ANALYZE_BATCH):
        batch = words[start:start + ANALYZE_BATCH]
        starts, offset = [], 0
        for word in batch:  # an array's values are analysed one after the other, offsets running on
            starts.append(offset)
            offset += len(word) + 1
        tokens = es.indices.analyze(index=index, analyzer=ANALYZER, text=batch)["tokens"]
        for token in tokens:  # a token starts inside the word it comes from ("x²" may give two)
            word = batch[bisect.bisect_right(starts, token["start_offset"]) - 1]
            out.setdefault(word, set()).add(token["token"])
    return out


def main() -> None:
    settings = load_settings()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--index", default=settings.index, help="default: PAPERLIST_INDEX")
    parser.add_argument("--floor", type=int, default=500, help="papers a word must be in to be counted")
    parser.add_argument("--out", type=Path, default=BROAD_WORDS)
    args = parser.parse_args()
    es = Elasticsearch(settings.es_hosts, request_timeout=120)
    df = document_frequencies(es, args.index)
    candidates = sorted(w for w, n in df.items() if n >= args.floor)
    print(f"{len(df):,} words, {len(candidates):,} in {args.floor:,} papers or more: counting them", file=sys.stderr)
    counts = match_counts(es, args.index, candidates)
    line = SAMPLE_FACETS_ABOVE // 2
    found = {w for w, n in counts.items() if n > line}
    # ... and every word of the corpus that shares a stem with one of them: "modeler" is also "model",
    # 140k papers, though fewer than 500 write "modeler".
    broad_stems = set().union(*stems(es, args.index, sorted(found)).values())
    spelled = stems(es, args.index, sorted(df))
    broad = sorted(found | {w for w, tokens in spelled.items() if tokens & broad_stems})
    papers = es.count(index=args.index)["count"]
    header = (f"# Words whose one-word search matches more than {line:,} papers (half the sampling line), counted\n"
              f"# on {papers:,} papers by deploy/tools/broad_words.py, and the words sharing a stem with one;\n"
              f"# one a line. Only these are counted before their search (services/search/query/breadth.py).\n")
    args.out.write_text(header + "".join(f"{w}\n" for w in broad))
    print(f"{len(broad)} broad words written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
