"""Nicknames as the corpus itself cites them: "CycleGAN (Zhu et al., 2017)" names the paper "CycleGAN" is.

The names people type for a paper ("detr", "maml", "vq-vae") are mostly not in its title, and
the product finds them from the record and from other papers' definitions ("Long Form (SHORT)",
:mod:`services.indexer.corpus.names.decide`). So that this extraction does not grade itself, the cases
come from another signal it never reads: later abstracts that cite a paper by name, surname and
year. Each "NAME (Surname et al., YEAR)" is resolved to the one listed paper whose first author
has that surname, of that year or the next (a venue's year may follow the arXiv year), and whose
own title or abstract can account for the name (it writes the name, or the title spells its
letters in order from a word's start: surnames are shared, "BERT-based (Devlin, 2020)" is not a
robot paper by another Devlin); a name that resolves to two papers, or a citation that fits none
or several, is skipped.

Two classes: ``nickname`` (the name as people type it, lowercase) and ``nickname_author`` (the
name and the surname). Nothing here knows particular papers or names.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Sequence

from elasticsearch import helpers

from bench.relevance.known_cases import Case, Target
from services.search.catalogue import HIDDEN_STATUSES
from services.search.records.model import title_key

CLASSES = ("nickname", "nickname_author")
_CITED = re.compile(r"(?P<name>[A-Za-z][\w\-+]*[\w+])\s*\(\s*(?P<surname>[A-Z][\w'\-]+)"
                    r"(?:\s+et\s+al\.?|\s+(?:and|&)\s+[A-Z][\w'\-]+)?,?\s+(?P<year>(?:19|20)\d\d)[a-z]?\s*\)")
# A coined word, by this module's own rule: a capital after the first letter, or a digit.
_COINED = re.compile(r"^[A-Za-z][\w\-+]*$")


def _coined(word: str) -> bool:
    return bool(_COINED.match(word)) and (any(c.isupper() for c in word[1:]) or any(c.isdigit() for c in word)) \
        and not word.isdigit() and len(word) >= 2


_SMALL = frozenset(("a", "an", "the", "of", "for", "and", "with", "to", "in", "on", "via", "by", "from"))


def _fold(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).casefold()


def citations(es, index: str) -> Iterable[tuple[str, str, int]]:
    """Every ``(name, surname, year)`` that an abstract of ``index`` cites."""
    for hit in helpers.scan(es, index=index, _source=["abstract"], size=2000,
                            query={"query": {"exists": {"field": "abstract"}}}):
        for m in _CITED.finditer(hit["_source"].get("abstract") or ""):
            if _coined(m["name"]):
                yield m["name"], m["surname"], int(m["year"])


def _spelled(name: str, title: str) -> bool:
    """Whether the name's letters are starts of the title's words, in order ("NAS": "Neural Architecture
    Search ...", "K-FAC": "Kronecker-factored Approximate Curvature", "GANs": "Generative Adversarial Nets")."""
    letters = "".join(c for c in _fold(name) if c.isalnum())
    letters = letters[:-1] if len(letters) > 2 and letters.endswith("s") else letters
    words = re.findall(r"[a-z0-9]+", _fold(title))

    def spells(rest: str, j: int) -> bool:
        """``rest`` from word ``j`` on: each word gives a start, or nothing when it is a small word."""
        if not rest:
            return True
        if j >= len(words):
            return False
        word = words[j]
        if any(word[:k] == rest[:k] and spells(rest[k:], j + 1) for k in range(min(len(word), len(rest)), 0, -1)):
            return True
        return word in _SMALL and spells(rest, j + 1)

    return len(letters) >= 2 and any(spells(letters, j) for j in range(len(words)))


def _accounts_for(name: str, paper: dict) -> bool:
    words = {w.strip(".,;:()[]\"'") for w in _fold(f"{paper['title']} {paper.get('abstract') or ''}").split()}
    return _fold(name) in words or _spelled(name, paper["title"])


def resolve(cited: Iterable[tuple[str, str, int]], docs: Sequence[dict]) -> list[tuple[str, str, dict]]:
    """``(name, surname, paper)`` for each name that resolves to exactly one listed paper (which needs
    its ``abstract``: see :func:`with_abstracts`)."""
    by_first: dict[tuple[str, int], list[dict]] = defaultdict(list)
    for doc in docs:
        authors = doc.get("author_names") or []
        if authors and doc["status"] not in HIDDEN_STATUSES:
            by_first[(_fold(authors[0].split()[-1]), int(doc["year"]))].append(doc)
    found: dict[str, set[tuple[str, str]]] = defaultdict(set)
    papers: dict[str, dict] = {}
    surnames: dict[str, str] = {}
    for name, surname, year in cited:
        fits = [d for y in (year, year + 1) for d in by_first.get((_fold(surname), y), [])]
        fits = [d for d in fits if _accounts_for(name, d)]
        if len({title_key(d["title"]) for d in fits}) != 1:
            continue
        paper = fits[0]
        key = name.lower()
        found[key].add((paper["paper_id"], name))
        papers[paper["paper_id"]] = paper
        surnames[paper["paper_id"]] = surname
    out = []
    for key, pairs in sorted(found.items()):
        if len({paper_id for paper_id, _ in pairs}) == 1:
            paper_id, name = sorted(pairs)[0]
            out.append((name, surnames[paper_id], papers[paper_id]))
    return out


def with_abstracts(es, index: str, docs: Sequence[dict], cited: Sequence[tuple[str, str, int]]) -> list[dict]:
    """The listed papers a citation may name, each with its abstract (fetched for those only)."""
    wanted = {(_fold(surname), y) for _, surname, year in cited for y in (year, year + 1)}
    maybe = [d for d in docs if d.get("author_names")
             and (_fold(d["author_names"][0].split()[-1]), int(d["year"])) in wanted]
    abstracts = {}
    for start in range(0, len(maybe), 1000):
        for doc in es.mget(index=index, ids=[d["paper_id"] for d in maybe[start:start + 1000]],
                           source_includes=["abstract"])["docs"]:
            abstracts[doc["_id"]] = (doc.get("_source") or {}).get("abstract") or ""
    return [{**d, "abstract": abstracts.get(d["paper_id"], "")} for d in maybe]


def cases(es, index: str, docs: Sequence[dict], n: int, seed: int) -> dict[str, tuple[list[Case], int]]:
    """Up to ``n`` cases of each class, in a seeded order, and how many names were ambiguous."""
    cited = list(citations(es, index))
    resolved = resolve(cited, with_abstracts(es, index, docs, cited))
    random.Random(f"{seed}:nickname").shuffle(resolved)
    made: dict[str, list[Case]] = {kind: [] for kind in CLASSES}
    for name, surname, paper in resolved[:n]:
        target = Target(paper["paper_id"], paper["title"], tuple(paper.get("author_names") or ()), paper["status"])
        made["nickname"].append(Case("nickname", name.lower(), target))
        made["nickname_author"].append(Case("nickname_author", f"{name.lower()} {surname.lower()}", target))
    return {kind: (found, 0) for kind, found in made.items()}
