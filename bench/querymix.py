"""The queries the benches send, shared so that benches of every kind time the same words.

Public search traffic is skewed: a few requests are asked over and over, most only once.
The load test draws from a pool of distinct requests built from the corpus with a Zipf law
whose exponent is solved so that a given share (80%) of requests come from the 1,000 most
popular ones; the same text-query generator feeds the linear-scan baseline and the cost
benches, so all time the same words. Beside it: a fixed mix of words and filters (the API's
latency, the body variants, the rebuild under load), the broad keywords, and the canonical
parameter order every request path is sent in.
"""

from __future__ import annotations

import gzip
import json
import random
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, urlencode

from bench.harness import corpus_files
from services.web.http.canonical import canonical_query

# Share of each kind of request among the distinct requests of the pool (data, not code).
KIND_WEIGHTS: dict[str, float] = {
    "title": 0.10,      # an exact title, pasted
    "fragment": 0.14,   # 2-4 consecutive words of a title
    "keyword": 0.14,    # one author keyword
    "author": 0.08,     # an author's name
    "facet": 0.14,      # a conference, year or topic filter clicked, with or without words
    "paging": 0.08,     # pages 2-5 of a text query
    "suggest": 0.20,    # autocomplete keystrokes: a 2-8 character prefix
    "detail": 0.12,     # a paper's page or its JSON
}
TEXT_KINDS = ("title", "fragment", "keyword", "author")
HTML_SHARE = 0.3        # searches and detail views that ask for the HTML page, not the JSON API
TOP = 1000              # "the most popular requests" of the issue
FALLBACK_TOPICS = ("computer-vision", "natural-language-processing", "reinforcement-learning", "robotics")
# Keywords that match a large share of the corpus (``learning``: 137k of 250k papers).
BROAD = ("learning", "neural networks", "deep learning", "language models", "reinforcement learning", "model")
_WORD = re.compile(r"[\w][\w'-]*", re.UNICODE)

# The fixed mix: a word or phrase (with the query language's syntax) and a filter, drawn seeded.
WORDS = ["learning", "neural", "graph", "robot", "diffusion", "language model", "reinforcement learning",
         "transformer", "segmentation", "bayesian", "optimization", "3d reconstruction", "\"neural network\"",
         "grasp*", "author:bengio", "attention -vision", "policy OR planning", "title:adversarial",
         "causal inference", "object detection", "federated", "kernel methods", "speech recognition"]
FILTERS = [{}, {}, {"conference": "neurips"}, {"year": "2018-2022"}, {"topic": "computer-vision"},
           {"conference": ["icra", "iros"]}, {"sort": "newest"}, {"has_code": "true"}]


def query_mix(n: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    return [{"q": rng.choice(WORDS), **rng.choice(FILTERS)} for _ in range(n)]


def canonical_path(path: str) -> str:
    """``path`` with its parameters in the canonical order (the one the app's links use)."""
    base, _, query = path.partition("?")
    query = canonical_query(parse_qsl(query, keep_blank_values=True))
    return f"{base}?{query}" if query else base


@dataclass(frozen=True, slots=True)
class Record:
    """The fields a query is built from, and the searchable text of the linear scan."""

    title: str
    abstract: str
    keywords: tuple[str, ...]
    primary_area: str
    authors: tuple[str, ...]
    conference: str
    year: int | None
    paper_id: str | None

    def scan_text(self) -> str:
        """Title, abstract, keywords and primary area, lowercased: what today's users scan."""
        return " ".join((self.title, self.abstract, "; ".join(self.keywords), self.primary_area)).lower()


def _text(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""


def _split(value: object) -> tuple[str, ...]:
    items = value if isinstance(value, list) else str(value or "").split(";")
    return tuple(s.strip() for s in items if isinstance(s, str) and s.strip())


def _identity():
    """The project's own paper id (read-only import), or None if the indexer moved it."""
    try:
        from services.indexer.paper.normalise import Rejected, identity, origin_from_path
    except ImportError:
        return None
    def paper_id(record: dict, path: str, position: int) -> str | None:
        try:
            return identity(record, origin_from_path(path, position))[0]
        except Rejected:
            return None
    return paper_id


def load_records(corpus: Path, step: int = 1) -> list[Record]:
    """Every record of every ``step``-th corpus file, with a plain JSON loop."""
    paper_id = _identity()
    records: list[Record] = []
    for path in corpus_files(corpus, step):
        opener = gzip.open if path.name.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8") as fh:
            rows = json.load(fh)
        conference = path.parent.name
        year_match = re.search(r"(19|20)\d\d", path.name)
        for position, row in enumerate(rows if isinstance(rows, list) else []):
            if not isinstance(row, dict) or not _text(row.get("title")):
                continue
            records.append(Record(
                title=_text(row.get("title")), abstract=_text(row.get("abstract")),
                keywords=_split(row.get("keywords")), primary_area=_text(row.get("primary_area")),
                authors=_split(row.get("author")), conference=conference,
                year=int(year_match.group(0)) if year_match else None,
                paper_id=paper_id(row, str(path), position) if paper_id else None))
    return records


class QueryMaker:
    """Seeded generator of requests of each kind from corpus records."""

    def __init__(self, records: list[Record], seed: int):
        if not records:
            raise SystemExit("error: the corpus gave no records")
        self.rng = random.Random(seed)
        self.records = records
        self.with_keywords = [r for r in records if r.keywords] or records
        self.with_authors = [r for r in records if r.authors] or records
        self.with_ids = [r for r in records if r.paper_id]
        try:
            from services.search.catalogue.taxonomy import TOPICS
            self.topics = tuple(t.slug for t in TOPICS)
        except ImportError:
            self.topics = FALLBACK_TOPICS

    def text(self, kind: str) -> str:
        """A text query of one of :data:`TEXT_KINDS`."""
        rng = self.rng
        if kind == "title":
            return rng.choice(self.records).title[:500]
        if kind == "fragment":
            words = _WORD.findall(rng.choice(self.records).title)
            n = min(len(words), rng.randint(2, 4))
            start = rng.randint(0, len(words) - n)
            return " ".join(words[start:start + n]) or "learning"
        if kind == "keyword":
            return rng.choice(rng.choice(self.with_keywords).keywords or ("learning",))[:200]
        if kind == "author":
            return rng.choice(rng.choice(self.with_authors).authors or ("smith",))[:200]
        raise ValueError(f"not a text kind: {kind}")

    def any_text(self) -> str:
        return self.text(self.rng.choice(TEXT_KINDS[1:]))  # titles are too specific to page or filter

    def request(self, kind: str) -> str:
        """A path with its query string, on the web service."""
        rng = self.rng
        search = "/search" if rng.random() < HTML_SHARE else "/api/v1/search"
        if kind in TEXT_KINDS:
            return f"{search}?{urlencode({'q': self.text(kind)})}"
        if kind == "paging":
            return f"{search}?{urlencode({'q': self.any_text(), 'page': rng.randint(2, 5)})}"
        if kind == "facet":
            record = rng.choice(self.records)
            params = {} if rng.random() < 0.3 else {"q": self.any_text()}
            choice = rng.randrange(3)
            if choice == 0:
                params["conference"] = record.conference
            elif choice == 1 and record.year:
                params["year"] = str(record.year)
            else:
                params["topic"] = rng.choice(self.topics)
            return f"{search}?{urlencode(params)}"
        if kind == "suggest":
            source = rng.choice((self.text("fragment"), self.text("keyword"), self.text("author")))
            return f"/api/v1/suggest?{urlencode({'q': source[:rng.randint(2, 8)]})}"
        if kind == "detail":
            if not self.with_ids:
                raise SystemExit("error: no paper ids (services.indexer.paper.normalise.identity is not importable)")
            paper_id = rng.choice(self.with_ids).paper_id
            return f"/papers/{paper_id}" if rng.random() < HTML_SHARE else f"/api/v1/papers/{paper_id}"
        raise ValueError(f"unknown kind: {kind}")


def text_queries(records: list[Record], n: int, seed: int) -> list[tuple[str, str]]:
    """``n`` distinct ``(kind, q)`` text queries, kinds in :data:`KIND_WEIGHTS` proportions."""
    maker = QueryMaker(records, seed)
    weights = [KIND_WEIGHTS[k] for k in TEXT_KINDS]
    seen: dict[str, str] = {}
    for _ in range(n * 20):
        if len(seen) >= n:
            break
        kind = maker.rng.choices(TEXT_KINDS, weights)[0]
        seen.setdefault(maker.text(kind), kind)
    return [(kind, q) for q, kind in seen.items()]


def request_pool(records: list[Record], size: int, seed: int) -> list[tuple[str, str]]:
    """``size`` distinct ``(kind, path)`` requests in popularity order (rank 1 first)."""
    maker = QueryMaker(records, seed)
    kinds, weights = list(KIND_WEIGHTS), list(KIND_WEIGHTS.values())
    pool: dict[str, str] = {}
    for _ in range(size * 20):
        if len(pool) >= size:
            break
        kind = maker.rng.choices(kinds, weights)[0]
        pool.setdefault(maker.request(kind), kind)
    return [(kind, path) for path, kind in pool.items()]


def zipf_exponent(size: int, top: int = TOP, share: float = 0.8) -> float:
    """The exponent s of P(rank r) ~ r^-s giving the ``top`` ranks ``share`` of the mass."""
    if size <= top:
        return 0.0
    def top_share(s: float) -> float:
        weights = [r ** -s for r in range(1, size + 1)]
        return sum(weights[:top]) / sum(weights)
    lo, hi = 0.0, 5.0
    for _ in range(50):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if top_share(mid) < share else (lo, mid)
    return (lo + hi) / 2


def zipf_sequence(pool_size: int, n: int, seed: int, share: float = 0.8) -> tuple[list[int], float]:
    """``n`` ranks (0-based) drawn from a Zipf law over the pool, and the exponent used."""
    s = zipf_exponent(pool_size, TOP, share)
    cum, total = [], 0.0
    for r in range(1, pool_size + 1):
        total += r ** -s
        cum.append(total)
    return random.Random(seed).choices(range(pool_size), cum_weights=cum, k=n), s


def scan_count(texts: list[str], q: str) -> int:
    """Today's linear scan: every lowercased word of the query is a substring of the record's text."""
    words = q.lower().split()
    return sum(1 for text in texts if all(w in text for w in words))
