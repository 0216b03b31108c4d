"""How matches are ordered beyond BM25: the paper a query names, and the prominence prior.

The most common query on a paper search site is a paper the person already knows, typed
the way people type: its name ("LoRA", "Direct Preference Optimization"), its first
words, an author and a few title words. BM25 alone prefers whichever short title repeats
the words ("Filtered Direct Preference Optimization" over DPO itself). So the text query
of :mod:`.text_query` is wrapped in a ``function_score`` whose factors multiply its score
(scale-free: a one-word query scores ~60, a three-word one ~300):

* **known-item factors** (filters, each a fixed multiplier: one row of :data:`FACTORS` each, its name,
  weight and condition, read off the query's :class:`~.reading.QueryReading`): the query is
  the whole title (its ``title_key``), one of the paper's *names* (``name_keys``: the part of the
  title before its colon, a name its abstract coins, an acronym other papers give it;
  :mod:`services.search.records.paper_names`), a name the paper *introduced* (``intro_keys``: it bore the name first, when
  the name was new), the name the title starts with exactly as typed ("BINDER", beating a paper
  merely known as Binder), a name plus an author's surname ("maml finn"), the start of a name (a
  ``prefix``, so a word cut mid-way still counts), the start of the title while its last word is
  cut or when the words begin or end on a small word ("The Role of Symmetry"), or an author's
  surname plus title words;
* **the prominence prior** (:mod:`services.search.records.prominence`): ``1 + PRIOR_WEIGHT * (prominence - 0.5)``,
  a factor in [0.8, 1.2] that orders papers matching about equally well and cannot lift a
  weak match over a strong one (each known-item factor is larger than the prior's whole range).

Only text that may be a title takes part (:attr:`QueryReading.title_text`); a query with
no text, or a sort other than relevance, never reads the scores. ``docs/ranking.md`` has
the formula and how it was measured (``bench/relevance/known_item.py``, ``bench/relevance/topical.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from services.search.catalogue import HIDDEN_STATUSES
from services.search.records.prominence import NEUTRAL

from .reading import MIN_KEY_CHARS, AuthorTitle, NameAuthor, QueryReading

Clause = dict[str, Any]

PRIOR_WEIGHT = 0.4
MIN_INTRO_MENTIONS = 2  # later abstracts mentioning a name before its introducer is lifted for it


@dataclass(frozen=True)
class Factor:
    """A known-item factor: its name, its multiplier, and its condition: the filters a reading of the
    query gives it (none when that reading cannot name a paper this way), for the readings it ``reads``."""

    name: str
    weight: float
    condition: Callable[[Any], list[Clause]]
    reads: type | tuple[type, ...] = QueryReading


def _terms(field: str, values: tuple[str, ...]) -> Clause:
    return {"terms": {field: list(values)}}


def _title(q: QueryReading) -> list[Clause]:
    """The whole title (case, accents and punctuation aside)."""
    return [_terms("title_key", q.title_keys)] if q.title_keys else []


def _title_hidden(q: QueryReading) -> list[Clause]:
    """... of a paper lists hide by default (rejected, withdrawn)."""
    if not q.title_keys:
        return []
    return [{"bool": {"filter": [_terms("title_key", q.title_keys), _terms("status", HIDDEN_STATUSES)]}}]


def _name(q: QueryReading) -> list[Clause]:
    """One of its names: "lora", "direct preference optimization", "vq-vae", "maml"."""
    return [_terms("name_keys", q.name_keys)] if q.name_keys else []


def _name_author(split: NameAuthor) -> list[Clause]:
    """A name plus an author's names: "maml finn", "vqvae van den oord"."""
    return [{"bool": {"filter": [_terms("name_keys", split.name_keys), _author(split)]}}]


def _introduced(q: QueryReading | NameAuthor) -> list[Clause]:
    """A name it introduced: once later papers mention it (one is its namesake, as often as not), or beside
    an author's names."""
    if isinstance(q, NameAuthor):
        return [{"bool": {"filter": [_terms("intro_keys", q.name_keys), _author(q)]}}]
    if not q.name_keys:
        return []
    mentioned = {"range": {"mentions": {"gte": MIN_INTRO_MENTIONS}}}
    return [{"bool": {"filter": [_terms("intro_keys", q.name_keys), mentioned]}}]


def _author(split: NameAuthor) -> Clause:
    return {"match": {"authors_folded": {"query": split.author, "operator": "and"}}}


def _name_as_typed(q: QueryReading) -> list[Clause]:
    """A name spelt as typed, not only as its plural: a typed plural names its singular too ("gans" names GAN),
    but is never the only spelling "as typed"."""
    singular = [k for k in q.typed_keys if not k.endswith("s")]
    if not singular:
        return []
    return [{"bool": {"filter": [{"terms": {"name_keys": singular}}],
                      "must_not": [{"terms": {"name_keys": [k + "s" for k in singular]}}]}}]


def _title_name(q: QueryReading) -> list[Clause]:
    """The name a title starts with, exactly as typed ("BINDER" for "BINDER: Instantly Adaptive ...",
    "Swin-" for "Swin-: Gradient-Based ..."): the text is one of the paper's own names as written (case,
    hyphens and all), its title starts with those words, and no longer name of the paper starts so
    (its abstract's "Hilbert maps" also coins "Hilbert": the title's name is "Hilbert maps").

    A paper merely known by that name (an acronym other abstracts give it, a name it introduced in
    other case: "Binder") has not titled itself with it; the paper that did is the one meant.
    """
    if not q.typed_key or len(q.as_typed_key) < MIN_KEY_CHARS:
        return []
    return [{"bool": {"filter": [{"term": {"names": q.as_typed}}, {"prefix": {"title_key": q.as_typed_key + " "}}],
                      "must_not": [{"wildcard": {"name_keys": q.typed_key + "?*"}}]}}]


def _name_start(q: QueryReading) -> list[Clause]:
    """The start of a name, only while the last word is cut ("direct pref", "graphsa"): "stochastic gradient
    descent" starts many names, and lifting them cost topical precision. Cut means not a whole word as
    written: "quantised preference align" still starts "... Alignment"."""
    if not (q.name_keys and q.cut):
        return []
    return [{"bool": {"filter": [{"prefix": {"name_keys": q.name_keys[0]}}],
                      "must_not": [{"match": {"title.exact": q.cut.text}}]}}]


def _title_start(q: QueryReading) -> list[Clause]:
    """The start of the title, in two readings.

    Its last word cut: "transfer learning" starts hundreds of titles (a topic, which this factor cost
    6 points of topical precision); "equivariant polynomials for graph neur" starts one, and no title
    holds "neur" as a word (stemmed: "processes" is "process"). A small word is whole, never cut
    ("control strategies for" is not "... format").

    Whole words that begin or end on a small word are a sentence's start, not a topic (no keyword
    begins "The Role of" or ends "Depth of"): the titles starting with those words, word for word.
    """
    out: list[Clause] = []
    if q.title_cut:
        out.append({"bool": {"filter": [{"prefix": {"title_key": q.title_cut}}],
                             "must_not": [{"match": {"title": q.cut.text}}]}})
    if q.sentence_start:
        out.append({"prefix": {"title_key": q.title_key + " "}})
    return out


def _author_title(split: AuthorTitle) -> list[Clause]:
    """One word is an author's name, the others are all in the title: "adamw loshchilov"."""
    return [{"bool": {"filter": [{"match": {"authors_folded": split.author}},
                                 {"match": {"title": {"query": split.title_words, "operator": "and"}}}]}}]


# The known-item factors, one row each: name, multiplier, condition (and the readings of the query it reads, when
# not the query whole). Their filters go to Elasticsearch in this order, reading by reading (known_item_filters).
FACTORS: tuple[Factor, ...] = (
    Factor("title", 8.0, _title),
    # After its twin listed under the same title (the paper accepted elsewhere), still before papers that only
    # share words.
    Factor("title_hidden", 0.5, _title_hidden),
    Factor("name", 4.0, _name),
    Factor("name_author", 4.0, _name_author, NameAuthor),
    # Times the name's 4 (or the name and author's): the paper a name belongs to.
    Factor("introduced", 3.0, _introduced, (QueryReading, NameAuthor)),
    Factor("name_as_typed", 1.6, _name_as_typed),  # "SWORD" before "Swords", "RED" before "REDs"
    # Beats a paper merely known by the name, even where that one introduced it ("Binder").
    Factor("title_name", 3.5, _title_name),
    Factor("name_start", 1.6, _name_start),
    Factor("title_start", 2.0, _title_start),
    Factor("author_title", 2.0, _author_title, AuthorTitle),
)
WEIGHTS = {factor.name: factor.weight for factor in FACTORS}


def known_item_filters(q: QueryReading) -> list[tuple[str, Clause]]:
    """``(factor, filter)`` for each way the query's text may name a paper (:data:`FACTORS`): the query read
    whole, then each split into a name and an author, then each word as an author beside title words."""
    return [(factor.name, clause) for reading in (q, *q.name_authors, *q.author_titles)
            for factor in FACTORS if isinstance(reading, factor.reads) for clause in factor.condition(reading)]


def ranked(text_query: dict[str, Any], q: QueryReading) -> dict[str, Any]:
    """``text_query`` scored by the known-item factors and the prominence prior (unchanged without text)."""
    if not q.parsed.clauses:
        return text_query
    functions = [{"filter": query_filter, "weight": WEIGHTS[factor]} for factor, query_filter in known_item_filters(q)]
    query = text_query
    if functions:
        query = {"function_score": {"query": query, "functions": functions,
                                    "score_mode": "multiply", "boost_mode": "multiply"}}
    prior = [{"weight": 1 - PRIOR_WEIGHT * NEUTRAL},
             {"field_value_factor": {"field": "prominence", "factor": PRIOR_WEIGHT, "missing": NEUTRAL}}]
    return {"function_score": {"query": query, "functions": prior, "score_mode": "sum", "boost_mode": "multiply"}}
