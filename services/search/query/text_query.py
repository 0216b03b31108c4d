"""Compile a query, as read once (:class:`~.reading.QueryReading`), into the relevance query.

Only the text part: ``conference:``/``year:`` filter values are applied by the caller
(they combine with the facet filters); their negations are exclusions and land here in
``must_not``. Field weights are module constants so they can be tuned in one place.

Each plain word is its own ``cross_fields`` clause rather than one clause for the whole
text: ``cross_fields`` groups fields by analyzer and, with ``operator: and``, requires
*every* word inside *one* group, so ``hinton deep`` (an author name, exact_text, plus a
title word, english_text) would match nothing. Per word, the groups are OR-ed, so each
word only has to match somewhere. Positive words use ``zero_terms_query: all`` so a
stopword ("is") does not make the stemmed group match nothing.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from services.search.limits import PREFIX_EXPANSIONS
from services.search.records.paper_names import fold

from .query_language import Clause, Term
from .reading import QueryReading

# Plain words: each must match in one of these (stemmed, except author names and paper names).
# Author names match accent-folded (authors_folded; the query folds its words too, :func:`_folded`).
WORD_FIELDS = ("title^4", "keywords^2", "topic_labels^1.5", "authors_folded^2",
               "affiliations^1", "abstract^1", "tldr^1")
# Quoted phrases: unstemmed subfields with stopwords kept, so "learning to rank" is
# exactly that (on a stemmed field the removed "to" would match any word).
PHRASE_FIELDS = ("title.exact^4", "keywords.exact^2", "topic_labels.exact^1.5",
                 "authors_folded^2", "affiliations^1", "abstract.exact^1", "tldr.exact^1")
# prefix*: unstemmed terms (title.exact has index_prefixes, so it is a single term lookup).
PREFIX_FIELDS = ("title.exact^4", "authors_folded^2", "keywords.exact^2", "abstract.exact^1")
# A word (or compound) is also a paper's name when it folds to one of its keys ("vqvae", "VQ-VAE",
# "protonet" for "ProtoNets"): one more place it matches (paper_names.search_keys), scored like a
# title word. Only whole keys: the words of names are not matched apart (names restate title
# phrases, and matching their words again lifted titles over keywords: -3 points of topical precision).
NAME_KEY_FIELD = "name_keys"
# ... and when it is how the field shortens one of the title's networks ("protonet", "convnets":
# paper_names.contractions), scored like a title word too; no known-item factor reads it.
CONTRACTION_FIELD = "title_contractions"
TITLE_KEY_FIELD = "title_key"
PERSON_FIELD = "author_ids"  # the person of each author place: ``person:``, ``-person:`` and the author facet
NAME_KEY_BOOST = 4.0

# The last word, maybe still being typed, also matches the words it starts, in these fields
# (short ones: on abstracts a three-letter prefix expands to thousands of words).
TYPED_FIELDS: dict[str | None, tuple[str, ...]] = {
    None: ("title.exact^4", "authors_folded^2", "keywords.exact^2"),
    "title": ("title.exact",), "author": ("authors_folded",)}
# ... and where it only scores (every search): fields whose prefixes are indexed, so each is one
# term lookup, not an expansion over the terms (the author field's cost 5% of a search's time).
TYPED_SCORE_FIELDS: dict[str | None, tuple[str, ...]] = {
    None: ("title.exact^4", "keywords.exact^2"), "title": ("title.exact",), "author": ()}

# Optional boosts over the free text.
EXACT_BOOST_FIELDS = ("title.exact^3", "abstract.exact^0.5")
TITLE_PHRASE_BOOST = 10.0
ABSTRACT_PHRASE_BOOST = 2.0
PHRASE_SLOP = 2

# Scoped terms: (fields for words, for phrases, for prefixes).
SCOPED_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {
    "title": (("title", "title.exact"), ("title.exact",), ("title.exact",)),
    "author": (("authors_folded",), ("authors_folded",), ("authors_folded",)),
    "abstract": (("abstract", "abstract.exact"), ("abstract.exact",), ("abstract.exact",)),
    "aff": (("affiliations",), ("affiliations",), ("affiliations",)),
}

# A prefix made of one simple token can use plain `prefix` queries, capped to the
# best-scoring PREFIX_EXPANSIONS terms (a short prefix on abstracts matches thousands);
# anything the analyzer would split goes through phrase_prefix (same cap).
_SIMPLE_PREFIX = re.compile(r"[a-z0-9]+")
# A hyphenated word is one compound ("self-consistency"), not two words anywhere in a paper.
_COMPOUND = re.compile(r"\w-\w")
_PREFIX_REWRITE = f"top_terms_{PREFIX_EXPANSIONS}"


def _field_boost(spec: str) -> tuple[str, float]:
    name, _, boost = spec.partition("^")
    return name, float(boost or 1)


def _single(kind: str, spec: str, body: dict[str, Any]) -> dict[str, Any]:
    name, boost = _field_boost(spec)
    if boost != 1:
        body["boost"] = boost
    return {kind: {name: body}}


def _words(text: str, fields: tuple[str, ...], *, zero_terms_all: bool) -> dict[str, Any]:
    if len(fields) == 1:
        body: dict[str, Any] = {"query": text, "operator": "and"}
        if zero_terms_all:
            body["zero_terms_query"] = "all"
        return _single("match", fields[0], body)
    mm: dict[str, Any] = {"query": text, "type": "cross_fields", "operator": "and",
                          "fields": list(fields)}
    if zero_terms_all:
        mm["zero_terms_query"] = "all"
    return {"multi_match": mm}


def _phrase(text: str, fields: tuple[str, ...]) -> dict[str, Any]:
    if len(fields) == 1:
        return _single("match_phrase", fields[0], {"query": text})
    return {"multi_match": {"query": text, "type": "phrase", "fields": list(fields)}}


def _prefix(text: str, fields: tuple[str, ...]) -> dict[str, Any]:
    value = text.lower()
    if not _SIMPLE_PREFIX.fullmatch(value):
        return {"multi_match": {"query": text, "type": "phrase_prefix", "fields": list(fields),
                                "max_expansions": PREFIX_EXPANSIONS}}
    queries = []
    for spec in fields:
        name, boost = _field_boost(spec)
        queries.append({"prefix": {name: {"value": value, "boost": boost, "rewrite": _PREFIX_REWRITE}}})
    if len(queries) == 1:
        return queries[0]
    return {"bool": {"should": queries, "minimum_should_match": 1}}


def _term(term: Term, negated: bool, q: QueryReading) -> dict[str, Any]:
    """One term's query; a term with accents also matches folded ("schölkopf" or "scholkopf"), where
    author names are (their folded field), and an unscoped word also matches a paper's name key
    (:attr:`QueryReading.word_keys`): the better of the two counts (``dis_max``), so a paper named by the
    word scores the same whether or not its title also writes it ("gans": Generative Adversarial Nets
    beside "... Stability in GANs")."""
    folded = fold(term.text)
    if term.field == "author":
        return _unfolded(replace(term, text=folded), negated)
    query = _unfolded(term, negated)
    if folded != term.text.casefold():
        query = {"bool": {"should": [query, _unfolded(replace(term, text=folded), negated)], "minimum_should_match": 1}}
    keys = q.word_keys.get(term)
    if keys:
        query = {"dis_max": {"queries": [query, _named(keys)]}}
    return query


def _named(keys: tuple[str, ...]) -> dict[str, Any]:
    """Papers with one of these name keys. Keyword fields: one term per field, their scores summed (most_fields),
    as a title word's are; a typed plural also as its singular ("gans": GAN), the better of the two counting (a
    name "GANs" has both)."""
    named = [{"multi_match": {"query": key, "type": "most_fields", "boost": NAME_KEY_BOOST,
                              "fields": [NAME_KEY_FIELD, CONTRACTION_FIELD]}} for key in keys]
    return named[0] if len(named) == 1 else {"dis_max": {"queries": named}}


def _whole_name(q: QueryReading) -> dict[str, Any] | None:
    """The query's plain words as one paper's name, where they fold to its key but are not all its words
    ("faster rcnn" for "Faster R-CNN", "deep sets" for "DeepSets"); None for other queries. An alternative
    to the words (the better scoring counts), so a paper that has the words as well scores as it did."""
    return _named(q.whole_name_keys) if q.whole_name_keys else None


def _unfolded(term: Term, negated: bool) -> dict[str, Any]:
    query = _text_match(term, negated)
    if term.joined:  # "N:M" also as the one token the index made of it
        whole = _text_match(replace(term, text=term.joined, joined=""), negated)
        query = {"bool": {"should": [query, whole], "minimum_should_match": 1}}
    return query


def _text_match(term: Term, negated: bool) -> dict[str, Any]:
    """The query of the term's text in the fields it is scoped to (all the text fields when unscoped)."""
    scoped = SCOPED_FIELDS.get(term.field) if term.field else None
    if scoped is None:  # unscoped (an unknown field is searched everywhere too)
        if term.phrase:
            return _phrase(term.text, PHRASE_FIELDS)
        if term.prefix:
            return _prefix(term.text, PREFIX_FIELDS)
        if _COMPOUND.search(term.text):  # "self-consistency", "r-cnn": the parts together, in one field
            return {"multi_match": {"query": term.text, "type": "phrase", "fields": list(WORD_FIELDS)}}
        # A positive stopword matches everything; a negated one must not exclude everything.
        return _words(term.text, WORD_FIELDS, zero_terms_all=not negated)
    words, phrases, prefixes = scoped
    if term.phrase:
        return _phrase(term.text, phrases)
    if term.prefix:
        return _prefix(term.text, prefixes)
    if len(words) > 1:  # title/abstract: stemmed or exact, so "title:the" still finds "the"
        return {"multi_match": {"query": term.text, "type": "best_fields", "operator": "and",
                                "fields": list(words)}}
    return _words(term.text, words, zero_terms_all=False)


def _clause(clause: Clause, q: QueryReading) -> dict[str, Any]:
    queries = [_term(term, clause.negated, q) for term in clause.alternatives]
    if len(queries) == 1:
        return queries[0]
    return {"bool": {"should": queries, "minimum_should_match": 1}}


def _boosts(text: str, content: list[str]) -> list[dict[str, Any]]:
    """Optional clauses that order results: unstemmed hits, phrase proximity (the exact title,
    the name and the title's start are factors of :mod:`.ranking`).

    Stopwords do not count (``content`` is the text's words without them): "the" in the unstemmed
    abstracts, or a phrase of "learning to", scores nearly every paper's postings (the slowest
    queries of the load mix, 150-170 ms, were such title fragments) and orders nothing.
    """
    should: list[dict[str, Any]] = []
    if content:
        should.append({"multi_match": {"query": " ".join(content), "type": "most_fields",
                                       "fields": list(EXACT_BOOST_FIELDS)}})
    if len(content) > 1:
        should.append({"match_phrase": {"title": {"query": text, "slop": PHRASE_SLOP,
                                                  "boost": TITLE_PHRASE_BOOST}}})
        should.append({"match_phrase": {"abstract": {"query": text, "slop": PHRASE_SLOP,
                                                     "boost": ABSTRACT_PHRASE_BOOST}}})
    return should


# What the highlighter marks: the words themselves in the two highlighted fields. The
# relevance query (cross_fields over seven fields, boosts, exact-title keys) gave the same
# marks at twice the cost, since the highlighter extracts and rewrites every clause per hit.
# Each field gets only its own clauses: the highlighter rewrites a field's query for every hit,
# and the other field's clauses marked nothing there (the same marks on 614 bodies of the load
# mix; 0.6 ms less of a 20-hit page's 2.9 ms of highlighting, full corpus).
HIGHLIGHT_SCOPES: dict[str | None, tuple[str, ...]] = {
    None: ("title", "abstract"), "title": ("title",), "abstract": ("abstract",)}


def _highlight_term(term: Term) -> list[tuple[str, dict[str, Any]]]:
    """``(field, query)`` for each highlighted field the term is marked in."""
    fields = HIGHLIGHT_SCOPES.get(term.field, ())
    if term.prefix and _SIMPLE_PREFIX.fullmatch(term.text.lower()):
        return [(f, {"prefix": {f: {"value": term.text.lower(), "rewrite": _PREFIX_REWRITE}}}) for f in fields]
    kind = "match_phrase" if term.phrase or term.prefix else "match"
    return [(f, {kind: {f: term.text}}) for f in fields]


def highlight_queries(q: QueryReading, *, expand_last: bool = False) -> dict[str, dict[str, Any]]:
    """The terms to mark in titles and abstracts, a query per field: every positive term scoped to it
    (or unscoped), and the free text as a phrase, so adjacent words are marked as one run, as ranked."""
    marked = [mark for clause in q.clauses if not clause.negated
              for term in clause.alternatives for mark in _highlight_term(term)]
    typed = q.typed if expand_last else None
    if typed:  # the word being typed is marked where it starts a word too
        marked += _highlight_term(replace(typed, prefix=True))
    text = q.free_text
    if len(text.split()) > 1:
        marked += [(f, {"match_phrase": {f: {"query": text, "slop": PHRASE_SLOP}}}) for f in HIGHLIGHT_SCOPES[None]]
    out = {}
    for field in HIGHLIGHT_SCOPES[None]:
        should = [q for f, q in marked if f == field]
        out[field] = {"bool": {"should": should}} if should else {"match_none": {}}
    return out


def _typed(term: Term, q: QueryReading) -> dict[str, Any]:
    """The last word as typed so far: the word itself, or a word it starts (in titles, names, keywords)."""
    fields = TYPED_FIELDS.get(term.field, ())
    return {"bool": {"should": [_term(term, False, q), _prefix(term.text, fields)], "minimum_should_match": 1}}


def compile_query(q: QueryReading, *, expand_last: bool = False) -> dict[str, Any]:
    """The ``bool`` query for relevance over the text fields (``match_all`` when no text).

    ``expand_last``: the last word also matches the words it starts (:attr:`QueryReading.typed`);
    the service asks for it when the words as typed found too little (``direct preference optim``).

    Otherwise a text of two words or more whose last one is cut also matches the titles it starts
    (:attr:`QueryReading.cut_start`), its last word as a prefix: "Integrated Defense for Res" matched five
    papers with "res" as a word (an abbreviation in their abstracts) and never the one whose title it
    starts, so the last word was never expanded (that happens below five hits) and the paper was not found
    at all: 14 of the 300 cut-word queries of bench/relevance/known_item.py. A handful of papers at most,
    each one meant; a complete word adds nothing (the titles it starts already hold it); a small word last
    ("for") is whole, never cut.
    """
    must: list[dict[str, Any]] = []
    must_not: list[dict[str, Any]] = []
    typed = q.typed
    start = "" if expand_last else q.cut_start
    for clause in q.clauses:
        if expand_last and typed and clause.alternatives == (typed,) and not clause.negated:
            must.append(_typed(typed, q))
            continue
        if start and clause.alternatives == (typed,) and not clause.negated:
            # The last word as typed (scored as before), or else cut in the title the whole text starts.
            word = _clause(clause, q)
            must.append({"bool": {"should": [word, {"bool": {
                "must": [_typed(typed, q)], "filter": [{"prefix": {TITLE_KEY_FIELD: start}}], "must_not": [word]}}],
                "minimum_should_match": 1}})
            continue
        (must_not if clause.negated else must).append(_clause(clause, q))
    whole = _whole_name(q)
    if whole and must:
        must = [{"dis_max": {"queries": [{"bool": {"must": must}}, whole]}}]
    if q.parsed.excluded_conferences:
        must_not.append({"terms": {"conference": list(q.parsed.excluded_conferences)}})
    for low, high in q.parsed.excluded_years:
        must_not.append({"range": {"year": {"gte": low, "lte": high}}})
    if q.parsed.excluded_people:
        must_not.append({"terms": {PERSON_FIELD: list(q.parsed.excluded_people)}})
    body: dict[str, Any] = {"must": must or [{"match_all": {}}]}
    text = q.free_text
    should = _boosts(text, list(q.content_words)) if text else []
    if typed and not expand_last and TYPED_SCORE_FIELDS.get(typed.field):
        # Scores only: the last word where it starts a title word, a name or a keyword ("networks" in
        # "network", "networking") counts again — +7 points of topical precision@10 (bench/relevance/topical.py).
        should.append(_prefix(typed.text, TYPED_SCORE_FIELDS.get(typed.field, ())))
    if should:
        body["should"] = should
    if must_not:
        body["must_not"] = must_not
    return {"bool": body}
