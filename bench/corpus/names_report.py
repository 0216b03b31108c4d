"""Before/after figures of name and vocabulary cleaning over a corpus (issue 11).

    python3 -m bench.corpus.names_report [--corpus DIR] [--top 200] [--write-display]
    python3 -m bench.corpus.names_report --normalised [--code CHECKOUT]

Reports author names that end in a footnote mark, duplicate groups among the top
affiliations, distinct keywords and how many co-author names collapse. With
``--write-display`` it rewrites ``services/indexer/cleaning/vocab/affiliation_display.toml``:
the most frequent spelling of every affiliation key that has several.

``--normalised`` measures what the index would hold: every record goes through the
source interface and the normaliser, in process (no Elasticsearch). ``--code`` runs
another checkout's normaliser (e.g. the main branch, for the "before" figures).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
_CODE = "PAPERLIST_NAMES_REPORT_CODE"  # set by the run that ``--code`` starts: the checkout it runs


def _run_on(checkout: str) -> None:
    """``--code CHECKOUT``: this report again, in a Python whose path starts with that checkout.

    ``-P`` keeps the current directory off the front of the path, so ``services`` is the
    checkout's and ``bench`` (a package here, a plain folder in older checkouts) this one's."""
    path = os.pathsep.join(filter(None, (str(Path(checkout).resolve()), str(REPO), os.environ.get("PYTHONPATH"))))
    env = {**os.environ, "PYTHONPATH": path, _CODE: checkout}
    os.execve(sys.executable, [sys.executable, "-P", "-m", __spec__.name, *sys.argv[1:]], env)


if __name__ == "__main__" and "--code" in sys.argv[:-1] and _CODE not in os.environ:
    _run_on(sys.argv[sys.argv.index("--code") + 1])
_code = os.environ.get(_CODE, str(REPO))

from services.indexer.cleaning import affiliations as aff  # noqa: E402
from services.indexer.cleaning.affiliations import canonical_affiliation  # noqa: E402
from services.indexer.cleaning.authors import clean_author_name  # noqa: E402
from services.indexer.cleaning.keywords import keyword_key  # noqa: E402
from services.indexer.sources import expand, load  # noqa: E402
from services.indexer.sources.paperlists_mapping import author_names  # noqa: E402
from services.search.records.name_keys import author_key, coauthor_key  # noqa: E402

MARKED = re.compile(r"(?:[*∗†‡§¶¹²³⁴⁵⁶⁷⁸⁹⁰]|(?<=\D)\d)\s*$")
DISPLAY_FILE = Path(aff.__file__).with_name("vocab") / "affiliation_display.toml"


def read(corpus: str) -> tuple[Counter, Counter, Counter]:
    """Raw author-list, affiliation and keyword strings with their frequencies."""
    authors, affs, keywords = Counter(), Counter(), Counter()
    for location in expand([corpus]):
        for _, record in load(location).records:
            if not isinstance(record, dict):
                continue
            for field, counter in (("author", authors), ("aff", affs), ("keywords", keywords)):
                value = record.get(field)
                if isinstance(value, str) and value.strip():
                    if field == "author":
                        counter[value] += 1
                    else:
                        counter.update(p.strip() for p in value.split(";") if p.strip())
    return authors, affs, keywords


def dup_groups(counts: Counter, top: int, key) -> list[list[str]]:
    """Groups of the ``top`` most frequent values that share a key."""
    groups: dict[str, list[str]] = defaultdict(list)
    for value, _ in counts.most_common(top):
        groups[key(value)].append(value)
    return [g for g in groups.values() if len(g) > 1]


def _shouted(text: str) -> bool:
    """``SUN YAT-SEN UNIVERSITY`` but not ``MIT CSAIL``."""
    words = text.split()
    return text.isupper() and len(words) > 1 and any(len(word) > 5 for word in words)


def display_table(affs: Counter) -> list[str]:
    """Most frequent spelling per key (not all capitals when another exists), for keys with several."""
    by_key: dict[str, Counter] = defaultdict(Counter)
    for value, n in affs.items():
        cleaned = aff.clean_affiliation(value)
        if cleaned:
            by_key[aff.canonical_key(cleaned)][cleaned] += n
    chosen = []
    for spellings in by_key.values():
        if len(spellings) < 2 or sum(spellings.values()) < 3:
            continue
        ranked = sorted(spellings.items(), key=lambda kv: (_shouted(kv[0]), -kv[1], kv[0]))
        chosen.append(ranked[0][0])
    return sorted(chosen)


def normalised_report(corpus: str, top: int) -> dict:
    """Figures over the papers the normaliser makes of the corpus (what the index stores)."""
    from services.indexer.paper.normalise import Rejected, normalise
    from services.indexer.sources import open_sources

    names, affs, keywords = Counter(), Counter(), Counter()
    papers = rejected = 0
    for source_file in open_sources([corpus]):
        for raw in source_file.read().records:
            try:
                paper = normalise(raw.data, raw.origin)
            except Rejected:
                rejected += 1
                continue
            papers += 1
            names.update(paper.author_names)
            affs.update(paper.affiliations)
            keywords.update(paper.keywords)
    marked = [n for n in names if MARKED.search(n)]
    fold = aff._fold_words
    return {
        "code": str(_code), "papers": papers, "rejected": rejected,
        "author_names_marked": {"distinct": len(marked), "occurrences": sum(names[n] for n in marked),
                                "examples": marked[:8]},
        "author_names_distinct": len(names),
        "affiliations_distinct": len(affs),
        "affiliation_top_dup_groups_case_accent_punct": {"top": top, "groups": dup_groups(affs, top, fold)},
        "keywords_distinct": {"exact": len(keywords), "facet_lowercase": len({k.lower() for k in keywords})},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=os.environ.get("PAPERLIST_CORPUS", "/work/shared/data/paperlists"))
    parser.add_argument("--top", type=int, default=200)
    parser.add_argument("--write-display", action="store_true")
    parser.add_argument("--show", action="store_true", help="print the remaining duplicate groups and the top list")
    parser.add_argument("--normalised", action="store_true", help="figures over normalised papers")
    parser.add_argument("--code", help="with --normalised: the checkout whose normaliser runs")
    args = parser.parse_args()
    if args.normalised:
        print(json.dumps(normalised_report(args.corpus, args.top), indent=2, ensure_ascii=False))
        return
    authors, affs, keywords = read(args.corpus)

    if args.write_display:
        names = display_table(affs)
        body = "".join(f"  {json.dumps(n, ensure_ascii=False)},\n" for n in names)
        header = "".join(line + "\n" for line in DISPLAY_FILE.read_text().splitlines() if line.startswith("#"))
        DISPLAY_FILE.write_text(header + "display = [\n" + body + "]\n")
        aff._display.cache_clear()
        print(f"wrote {len(names)} display spellings to {DISPLAY_FILE}")

    raw_names, clean_names = Counter(), Counter()
    for value, n in authors.items():
        for name in value.split(";"):
            raw_names[name.strip()] += n
        for name in filter(None, map(clean_author_name, author_names(value))):
            clean_names[name] += n
    report: dict[str, object] = {
        "author_names_marked": {"before": sum(1 for x in raw_names if MARKED.search(x)),
                                "after": sum(1 for x in clean_names if MARKED.search(x))},
        "author_names_distinct": {"before": len(raw_names), "after": len(clean_names)},
        "author_keys_distinct": len({author_key(x) for x in clean_names}),
        "coauthor_keys_distinct": len({coauthor_key(x) for x in clean_names}),
    }
    canonical = Counter()
    for value, n in affs.items():
        canonical[canonical_affiliation(value)] += n
    fold = aff._fold_words
    before_fold = dup_groups(affs, args.top, fold)
    before_key = dup_groups(affs, args.top, aff.canonical_key)
    after_fold = dup_groups(canonical, args.top, fold)
    after_key = dup_groups(canonical, args.top, aff.canonical_key)
    report["affiliation_top_dup_groups"] = {
        "top": args.top,
        "before_case_accent_punct": len(before_fold), "after_case_accent_punct": len(after_fold),
        "before_full_key": len(before_key), "after_full_key": len(after_key),
    }
    report["affiliations_distinct"] = {"before": len(affs), "after": len(canonical)}
    report["keywords_distinct"] = {"before": len(keywords), "before_casefold": len({k.casefold() for k in keywords}),
                                   "after": len({keyword_key(k) for k in keywords})}
    print(json.dumps(report, indent=2, ensure_ascii=False))
    if args.show:
        print("before (case/accent/punct):", *before_fold[:40], sep="\n  ")
        print("after (full key):", *after_key, sep="\n  ")
        for value, n in canonical.most_common(args.top):
            print(f"{n:6d} {value}")


if __name__ == "__main__":
    main()
