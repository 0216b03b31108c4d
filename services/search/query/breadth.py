"""Whether a search is broad enough for its facets to be counted on a sample (issue 34).

Counting facets over every match was half of a broad search's cost: ``learning`` matches
137k papers of the full corpus, and its aggregations took 95 ms against 37 ms on a random
sample of 10,000 (median error 3% on values of 1,000 papers or more). Whether a search is
broad is known only from its count, which Elasticsearch gives cheaply (no scoring, no
aggregations: 1-3 ms) but in a round trip of its own before the search; it is asked only of the
pages that list by one content word or none ("learning", "the model", a conference's year), the
ones that can match that many. Two content words rarely do: none of the 44 queries of one or two
words in the load mix's 100 matched 50,000 papers ("deep learning" 33k), and counting each cost it
a round trip; the few that do ("learning model", 85k) have their facets counted exactly, as every
search did before sampling. kNN searches count their k neighbours, already few. Below the line
every count is exact.

Most one-word searches are narrow too ("CAPTCHA", "sensitivity"): only the words in
``broad_words.txt`` (:data:`BROAD_WORDS`), those whose search matches more than half the line
on the full corpus under any filters, are counted first; any other plain word has its facets
counted exactly, without the round trip (16 of the load mix's 100 queries sent it, 15 of them
for nothing). ``deploy/tools/broad_words.py`` writes the list from an index; a word it lacks is
at worst counted exactly. A word still being typed (``lear`` as ``lear*``) or not a plain word
is counted as before.

What is counted is what the page lists: the query *and* the facet filters (``post_filter``).
Each facet's counts run over a superset of the listed papers (its own filter left out), so a
share taken from the listed count samples at least ~10,000 papers for every facet. Taken from
the query alone, a browse page counted the whole corpus: ICML 2020's page (1,084 papers) had
its facets counted on a 4% sample, "ICML ≈ 1,200" over a list of 1,084.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

from services.search import limits

from .request import SearchRequest

BROAD_WORDS = Path(__file__).with_name("broad_words.txt")
_PLAIN = re.compile(r"\w+")


def count_body(req: SearchRequest, body: dict[str, Any]) -> dict[str, Any] | None:
    """The count that tells whether ``req`` (sent as ``body``) is broad, or None: it cannot be."""
    words = req.reading.content_words
    if not req.counted_facets or "knn" in body or len(words) > limits.SAMPLE_CHECK_WORDS:
        return None
    if words and not req.expand_last and _PLAIN.fullmatch(words[0]) and words[0].casefold() not in broad_words():
        return None
    listed = {"post_filter": body["post_filter"]} if "post_filter" in body else {}
    return {"query": body["query"], **listed, "size": 0, "track_total_hits": True}


def sample_share(matched: int) -> float | None:
    """The share of ``matched`` papers to count facets on: about :data:`~services.search.limits.FACET_SAMPLE`
    of them past :data:`~services.search.limits.SAMPLE_FACETS_ABOVE`; None (all, exactly) below."""
    return round(limits.FACET_SAMPLE / matched, 4) if matched > limits.SAMPLE_FACETS_ABOVE else None


@functools.cache
def broad_words() -> frozenset[str]:
    """The words whose one-word search may be broad (``broad_words.txt``: one a line, ``#`` comments)."""
    lines = BROAD_WORDS.read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and not line.startswith("#"))
