"""The BibTeX upgrade (issue 48): precision and recall of "upgraded", and the time of a 500-entry .bib.

A test set is built from the index's own accepted papers: each drawn paper becomes an arXiv-style entry
(``@article{..., journal = {arXiv preprint arXiv:YYMM.NNNNN}}``) with one of the variations people's .bib
files have, in turn: the title lower-cased or upper-cased, LaTeX accents and braces (``{\\"o}``, ``{BERT}``,
title and first author), dashes (``--``, an en dash, a hyphen dropped), the title cut at its colon, the
authors as the first and "others", the preprint's year one before the venue's. Beside them, entries of
papers that are not in the index, made by mutating real titles (a word dropped, two words swapped, a word
replaced, a word added; kept only when no paper has the mutated title, whole or before its colon), under
the real first author: each must not come out "upgraded".

Precision: of the entries upgraded, those upgraded to the paper they were made from. Recall: of the
variation entries, those upgraded to it. The set is cut into .bib files of ``--file-size`` entries (each with
its share of mutated ones) and each file is sent to ``POST /api/v1/bibtex/upgrade`` through the real app
(in-process, uncached, unlimited); the time is per file, parsing, the searches and the JSON answer, after one
untimed file (the process's first request pays its imports and Elasticsearch's cold caches).

    python -m bench.relevance.bibtex_upgrade --index full12m --n 2000 --mutated 500
"""

from __future__ import annotations

import argparse
import random
import re
import time
import unicodedata
from collections import Counter

from elasticsearch import helpers

from bench.harness import percentiles, ranking_app, save
from services.search.answers.venue_match import accepted_statuses
from services.search.records.model import title_key

VARIATIONS = ("case", "latex", "dashes", "colon_cut", "others", "year_before")
MUTATIONS = ("drop_word", "swap_words", "replace_word", "add_word")
_ACCENT_COMMANDS = {"\u0308": '"', "\u0301": "'", "\u0300": "`", "\u0302": "^", "\u0303": "~", "\u0304": "=",
                    "\u0307": "."}
_CAPITALS = re.compile(r"\b(\w*[A-Z]\w*[A-Z]\w*)\b")  # BERT, ImageNet: braced as .bib files do


def papers(es, index: str) -> list[dict]:
    """Every accepted paper with a title and an author: id, title, authors' names, year, in a stable order."""
    query = {"query": {"bool": {"filter": [{"terms": {"status": accepted_statuses()}}]}}}
    docs = [h["_source"] for h in helpers.scan(es, index=index, query=query, size=5000,
                                                _source=["paper_id", "title", "authors.name", "year"])]
    docs = [d for d in docs if d.get("title") and d.get("authors") and len(title_key(d["title"]).split()) >= 2]
    return sorted(docs, key=lambda d: d["paper_id"])


def latex(text: str) -> str:
    """Accented letters as TeX accents (``{\\"o}``), words of two capitals braced (``{BERT}``)."""
    out = []
    for ch in unicodedata.normalize("NFD", text):
        if ch in _ACCENT_COMMANDS and out:
            out[-1] = "{\\" + _ACCENT_COMMANDS[ch] + out[-1] + "}"
        else:
            out.append(ch)
    return _CAPITALS.sub(r"{\1}", "".join(out))


def variant(doc: dict, variation: str, rng: random.Random) -> dict | None:
    """The entry's title, authors and year for ``variation`` (None when it does not apply to the paper)."""
    names = [a["name"] for a in doc["authors"]]
    title, year = doc["title"], int(doc["year"])
    if variation == "case":
        title = title.lower() if rng.random() < 0.5 else title.upper()
    elif variation == "latex":
        title, names = latex(title), [latex(n) for n in names]
    elif variation == "dashes":
        if "-" not in title:
            return None
        title = title.replace("-", rng.choice(["--", "\u2013", " "]))
    elif variation == "colon_cut":
        head, colon, _ = title.partition(":")
        if not colon or len(title_key(head)) < 2:
            return None
        title = head
    elif variation == "others":
        names = names[:1] + ["others"]
    elif variation == "year_before":
        year -= 1
    return {"title": title, "authors": names, "year": year}


def mutated(doc: dict, vocabulary: list[str], known: set[str], rng: random.Random) -> dict | None:
    """A title no paper has, made from a real one, under its real first author (None when the mutation meets one)."""
    words = doc["title"].split()
    how = rng.choice(MUTATIONS)
    at = rng.randrange(len(words))
    if how == "drop_word" and len(words) > 2:
        words.pop(at)
    elif how == "swap_words" and len(words) > 2:
        other = (at + 1) % len(words)
        words[at], words[other] = words[other], words[at]
    elif how == "replace_word":
        words[at] = rng.choice(vocabulary)
    else:
        words.insert(at, rng.choice(vocabulary))
    title = " ".join(words)
    head = title.partition(":")[0]
    if title_key(title) in known or title_key(head) in known:
        return None
    return {"title": title, "authors": [a["name"] for a in doc["authors"]], "year": int(doc["year"])}


def entry(key: str, work: dict) -> str:
    authors = " and ".join(_bib_name(n) for n in work["authors"])
    arxiv = f"{work['year'] % 100:02d}{random.Random(key).randrange(1, 13):02d}.{random.Random(key).randrange(10**5):05d}"
    return (f"@article{{{key},\n  title={{{work['title']}}},\n  author={{{authors}}},\n"
            f"  journal={{arXiv preprint arXiv:{arxiv}}},\n  year={{{work['year']}}}\n}}\n")


def _bib_name(name: str) -> str:
    if name == "others":
        return name
    parts = name.split()
    return f"{parts[-1]}, {' '.join(parts[:-1])}" if len(parts) > 1 else name


def build(docs: list[dict], n: int, n_mutated: int, seed: int) -> list[tuple[str, str, str]]:
    """(key, entry, expected paper id or "" for a mutated title, variation) of the set, shuffled."""
    rng = random.Random(seed)
    known = {title_key(d["title"]) for d in docs} | {title_key(d["title"].partition(":")[0]) for d in docs
                                                     if ":" in d["title"]}
    vocabulary = sorted({w for d in rng.sample(docs, min(5000, len(docs))) for w in d["title"].split() if w.isalpha()})
    out = []
    for i, doc in enumerate(rng.sample(docs, min(len(docs), n * 3))):
        if len([o for o in out if o[2]]) >= n:
            break
        variation = VARIATIONS[i % len(VARIATIONS)]
        work = variant(doc, variation, rng)
        if work is None:  # no dash, no colon: a case change instead
            variation, work = "case", variant(doc, "case", rng)
        assert work is not None
        out.append((f"v{i}", entry(f"v{i}", work), doc["paper_id"], variation))
    tries = 0
    while len([o for o in out if not o[2]]) < n_mutated and tries < n_mutated * 20:
        tries += 1
        work = mutated(rng.choice(docs), vocabulary, known, rng)
        if work:
            key = f"m{tries}"
            out.append((key, entry(key, work), "", "mutated"))
    rng.shuffle(out)
    return out


def run(client, cases: list[tuple[str, str, str, str]], file_size: int) -> dict:
    expected = {key: (paper, variation) for key, _, paper, variation in cases}
    times, got = [], {}
    # One file first, not timed: the first request of a process pays its imports and Elasticsearch's cold caches.
    client.post("/api/v1/bibtex/upgrade", data="".join(e for _, e, _, _ in cases[:file_size]).encode(),
                content_type="text/x-bibtex")
    for at in range(0, len(cases), file_size):
        text = "".join(e for _, e, _, _ in cases[at:at + file_size])
        started = time.perf_counter()
        resp = client.post("/api/v1/bibtex/upgrade", data=text.encode(), content_type="text/x-bibtex")
        times.append(time.perf_counter() - started)
        assert resp.status_code == 200, resp.get_data(as_text=True)[:300]
        for e in resp.get_json()["entries"]:
            got[e["key"]] = (e["outcome"], e["paper"]["id"] if e["paper"] else "")
    upgraded = {k: v for k, v in got.items() if v[0] == "upgraded"}
    right = sum(1 for k, (_, pid) in upgraded.items() if pid == expected[k][0])
    positives = [k for k, (pid, _) in expected.items() if pid]
    per_variation: dict[str, Counter] = {}
    for key, (pid, variation) in expected.items():
        outcome, found = got[key]
        counts = per_variation.setdefault(variation, Counter())
        counts["entries"] += 1
        counts["right" if pid and found == pid else ("wrong" if found else outcome)] += 1
    wrong = [(expected[k], got[k]) for k, (_, pid) in upgraded.items() if pid != expected[k][0]][:10]
    return {"entries": len(cases), "positives": len(positives), "mutated": len(cases) - len(positives),
            "upgraded": len(upgraded), "precision": right / len(upgraded) if upgraded else 0.0,
            "recall": sum(1 for k in positives if got[k] == ("upgraded", expected[k][0])) / len(positives),
            "file_size": file_size, "file_seconds": percentiles(times), "file_seconds_max": max(times),
            "file_seconds_each": [round(t, 3) for t in times],
            "by_variation": {v: dict(c) for v, c in sorted(per_variation.items())}, "wrong": wrong}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--index", default="full12m", help="the alias to match against (default full12m)")
    parser.add_argument("--n", type=int, default=2000, help="entries made from real papers")
    parser.add_argument("--mutated", type=int, default=500, help="entries of mutated titles (no such paper)")
    parser.add_argument("--file-size", type=int, default=500, help="entries per .bib sent")
    parser.add_argument("--seed", type=int, default=48)
    args = parser.parse_args(argv)
    _, client, es = ranking_app(args.index)
    docs = papers(es, args.index)
    cases = build(docs, args.n, args.mutated, args.seed)
    result = {"index": args.index, "papers": len(docs), "seed": args.seed, **run(client, cases, args.file_size)}
    print(f"{args.index} ({len(docs):,} accepted papers), seed {args.seed}: {result['entries']} entries "
          f"({result['positives']} of real papers, {result['mutated']} mutated)")
    print(f"precision {result['precision']:.4f}  recall {result['recall']:.4f}  "
          f"{args.file_size}-entry file: p50 {result['file_seconds']['p50']:.2f} s, max {result['file_seconds_max']:.2f} s")
    for variation, counts in result["by_variation"].items():
        print(f"  {variation:12} {counts}")
    for case in result["wrong"]:
        print("  wrong:", case)
    print("saved", save("bibtex-upgrade", result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
