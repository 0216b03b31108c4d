"""How matches are ordered beyond BM25: the paper a query names, and the prominence prior.

The most common query on a paper search site is a paper the person already knows, typed
the way people type: its name ("LoRA", "Direct Preference Optimization"), its first
words, an author and a few title words. BM25 alone prefers whichever short title repeats
the words ("Filtered Direct Preference Optimization" over DPO itself). So the text query
of :mod:`.text_query` is wrapped in a ``function_score`` whose factors multiply its score
(scale-free: a one-word query scores ~60, a three-word one ~300):

* **known-item factors** (filters, each a fixed multiplier, :data:`FACTORS`): the query is
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

Only text that may be a title takes part (:meth:`ParsedQuery.title_text`); a query with
no text, or a sort other than relevance, never reads the scores. ``docs/ranking.md`` has
the formula and how it was measured (``bench/relevance/known_item.py``, ``bench/relevance/topical.py``).
"""

from __future__ import annotations

import functools
import re
from typing import Any

from services.search.catalogue import HIDDEN_STATUSES
from services.search.limits import MAX_QUERY
from services.search.records.model import title_key
from services.search.records.paper_names import fold, query_key, query_keys
from services.search.records.prominence import NEUTRAL
from services.search.records.schema import ENGLISH_STOPWORDS

from .query_language import ParsedQuery

# The known-item multipliers, by what the query is of a paper's title.
FACTORS = {
    "title": 8.0,         # the whole title (case, accents and punctuation aside)
    "title_hidden": 0.5,  # ... of a paper lists hide by default (rejected, withdrawn): after its twin listed under the
                          #     same title (the paper accepted elsewhere), still before papers that only share words
    "name": 4.0,          # one of its names: "lora", "direct preference optimization", "vq-vae", "maml"
    "introduced": 3.0,    # ... a name it introduced (times the name's 4): the paper a name belongs to
    "name_as_typed": 1.6,  # ... spelt as typed, not only as its plural: "SWORD" before "Swords", "RED" before "REDs"
    "title_name": 3.5,    # ... the name its title starts with, exactly as typed: "BINDER" for "BINDER: ...", not for
                          #     a paper merely known as Binder (which it beats even where that one introduced "Binder")
    "name_author": 4.0,   # a name plus an author's names: "maml finn", "vqvae van den oord"
    "title_start": 2.0,   # the start of the title, its last word cut ("direct preference optim"), or words that
                          #     begin or end on a small word ("The Role of Symmetry", "Consistent Depth of")
    "name_start": 1.6,    # the start of the name: "direct pref"
    "author_title": 2.0,  # one word is an author's name, the others are all in the title: "adamw loshchilov"
}
PRIOR_WEIGHT = 0.4
MIN_KEY_CHARS = 2  # a shorter start ("a") starts half the corpus and tells nothing
_NAME_PLUS = re.compile(r"\w\+")  # "C++", "MAML++", "A+B"; not "+required" nor "A + B"
MIN_INTRO_MENTIONS = 2  # later abstracts mentioning a name before its introducer is lifted for it
AUTHOR_TITLE_WORDS = (2, 6)  # queries of this many content words may be words plus an author
NAME_AUTHOR_WORDS = 3  # a name of up to this many words, before or after up to this many of an author's


def title_keys(parsed: ParsedQuery, raw: str = "") -> list[str]:
    """The whole titles (``title_key``) the query's text may be: as parsed, and as typed (``raw``)."""
    return list(_title_keys(parsed, raw[:MAX_QUERY]))


@functools.lru_cache(maxsize=256)
def _title_keys(parsed: ParsedQuery, raw: str) -> tuple[str, ...]:
    # Once per query: a search's body asks three times (the title factor, the listing of a named hidden
    # paper, its count apart), 16 us each for a pasted title.
    keys = (title_key(parsed.title_text()), title_key(raw))
    return tuple(k for k in dict.fromkeys(keys) if len(k) >= MIN_KEY_CHARS)


def known_item_filters(parsed: ParsedQuery, raw: str = "") -> list[tuple[str, dict[str, Any]]]:
    """``(factor, filter)`` for each way the query's text may name a paper (:data:`FACTORS`).

    ``raw`` is the query as typed: a pasted title may hold syntax ("BERT: ...", "A OR B?")
    that parses into other words, and it is still that title.
    """
    text = parsed.title_text()
    key = title_key(text)
    out: list[tuple[str, dict[str, Any]]] = []
    titles = title_keys(parsed, raw)
    if titles:
        out.append(("title", {"terms": {"title_key": titles}}))
        out.append(("title_hidden", {"bool": {"filter": [{"terms": {"title_key": titles}},
                                                         {"terms": {"status": list(HIDDEN_STATUSES)}}]}}))
    # The text as parsed, and as typed ("A + B" parses into "A B"; its name keeps the "+"). A "+" typed
    # right after a word is part of the name: "ControlNet++" is not ControlNet, so only the typed key counts.
    typed_key = query_key(raw[:MAX_QUERY])
    texts = [raw[:MAX_QUERY]] if _NAME_PLUS.search(raw[:MAX_QUERY]) else [text, raw[:MAX_QUERY]]
    typed_keys = [k for k in dict.fromkeys(query_key(t) for t in texts) if k]
    # ... and a typed plural as its singular too ("gans" names GAN), never the only spelling "as typed".
    named = list(dict.fromkeys(k for t in texts for k in query_keys(t)))
    if named:
        # A name counts as introduced once later papers mention it (one is its namesake, as often as not).
        introduced = {"bool": {"filter": [{"terms": {"intro_keys": named}},
                                          {"range": {"mentions": {"gte": MIN_INTRO_MENTIONS}}}]}}
        out += [("name", {"terms": {"name_keys": named}}), ("introduced", introduced)]
        singular = [k for k in typed_keys if not k.endswith("s")]
        if singular:
            out.append(("name_as_typed", {"bool": {"filter": [{"terms": {"name_keys": singular}}],
                                                   "must_not": [{"terms": {"name_keys": [k + "s" for k in singular]}}]}}))
        out += _title_name(raw[:MAX_QUERY], typed_key)
    typed = parsed.still_typed()
    if named and typed and typed.field in (None, "title"):
        # A name's start, like the title's, only while the last word is cut ("direct pref", "graphsa"):
        # "stochastic gradient descent" starts many names, and lifting them cost topical precision. Cut
        # means not a whole word as written: "quantised preference align" still starts "... Alignment".
        out.append(("name_start", {"bool": {"filter": [{"prefix": {"name_keys": named[0]}}],
                                            "must_not": [{"match": {"title.exact": typed.text}}]}}))
    if (typed and typed.field in (None, "title") and len(key) >= MIN_KEY_CHARS
            and typed.text.lower() not in ENGLISH_STOPWORDS):
        # Only while the last word is cut: "transfer learning" starts hundreds of titles (a topic,
        # which this factor cost 6 points of topical precision); "equivariant polynomials for
        # graph neur" starts one, and no title holds "neur" as a word (stemmed: "processes" is "process").
        # A small word is whole, never cut ("control strategies for" is not "... format").
        out.append(("title_start", {"bool": {"filter": [{"prefix": {"title_key": key}}],
                                             "must_not": [{"match": {"title": typed.text}}]}}))
    if _fragment(key):
        # Whole words that begin or end on a small word are a sentence's start, not a topic (no keyword
        # begins "The Role of" or ends "Depth of"): the titles starting with those words, word for word.
        out.append(("title_start", {"prefix": {"title_key": key + " "}}))
    out += _name_author(parsed.free_text().split())
    words = parsed.content_words()
    low, high = AUTHOR_TITLE_WORDS
    if low <= len(words) <= high:
        for i, word in enumerate(words):
            rest = " ".join(words[:i] + words[i + 1:])
            out.append(("author_title", {"bool": {"filter": [
                {"match": {"authors_folded": fold(word)}},
                {"match": {"title": {"query": rest, "operator": "and"}}},
            ]}}))
    return out


def _fragment(key: str) -> bool:
    """Whether a title key of two words or more begins or ends on a small word ("the role of symmetry",
    "consistent depth of"): the start of a sentence, where a topic's words ("graph neural networks") never do."""
    words = key.split()
    return len(words) > 1 and (words[0] in ENGLISH_STOPWORDS or words[-1] in ENGLISH_STOPWORDS)


def _title_name(raw: str, key: str) -> list[tuple[str, dict[str, Any]]]:
    """The name a title starts with, exactly as typed ("BINDER" for "BINDER: Instantly Adaptive ...",
    "Swin-" for "Swin-: Gradient-Based ..."): the text is one of the paper's own names as written (case,
    hyphens and all), its title starts with those words, and no longer name of the paper starts so
    (its abstract's "Hilbert maps" also coins "Hilbert": the title's name is "Hilbert maps").

    A paper merely known by that name (an acronym other abstracts give it, a name it introduced in
    other case: "Binder") has not titled itself with it; the paper that did is the one meant.
    """
    typed = " ".join(raw.split())
    start = title_key(typed)
    if not key or len(start) < MIN_KEY_CHARS:
        return []
    return [("title_name", {"bool": {"filter": [{"term": {"names": typed}}, {"prefix": {"title_key": start + " "}}],
                                     "must_not": [{"wildcard": {"name_keys": key + "?*"}}]}})]


def _name_author(words: list[str]) -> list[tuple[str, dict[str, Any]]]:
    """A name and an author's names in either order ("maml finn", "zoph le nas"): each split of the
    words into a name (1-3 words) and an author (1-3 words), as a name and an introduced name."""
    out: list[tuple[str, dict[str, Any]]] = []
    n = len(words)
    for cut in range(1, n):
        for name_words, author_words in ((words[:cut], words[cut:]), (words[cut:], words[:cut])):
            if len(name_words) > NAME_AUTHOR_WORDS or len(author_words) > NAME_AUTHOR_WORDS:
                continue
            keys = query_keys(" ".join(name_words))
            if not keys:
                continue
            author = {"match": {"authors_folded": {"query": fold(" ".join(author_words)), "operator": "and"}}}
            out += [("name_author", {"bool": {"filter": [{"terms": {"name_keys": keys}}, author]}}),
                    ("introduced", {"bool": {"filter": [{"terms": {"intro_keys": keys}}, author]}})]
    return out


def ranked(text_query: dict[str, Any], parsed: ParsedQuery, raw: str = "") -> dict[str, Any]:
    """``text_query`` scored by the known-item factors and the prominence prior (unchanged without text)."""
    if not parsed.clauses:
        return text_query
    functions = [{"filter": query_filter, "weight": FACTORS[factor]}
                 for factor, query_filter in known_item_filters(parsed, raw if isinstance(raw, str) else "")]
    query = text_query
    if functions:
        query = {"function_score": {"query": query, "functions": functions,
                                    "score_mode": "multiply", "boost_mode": "multiply"}}
    prior = [{"weight": 1 - PRIOR_WEIGHT * NEUTRAL},
             {"field_value_factor": {"field": "prominence", "factor": PRIOR_WEIGHT, "missing": NEUTRAL}}]
    return {"function_score": {"query": query, "functions": prior, "score_mode": "sum", "boost_mode": "multiply"}}
