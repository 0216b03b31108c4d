"""The search-box query language: parser and compiler, pure (no Elasticsearch)."""

from __future__ import annotations

import json
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.search.limits import MAX_PREFIX_TERMS, MAX_QUERY, MAX_YEAR, MIN_YEAR, PREFIX_EXPANSIONS
from services.search.query import text_query
from services.search.query.query_language import (
    MAX_CLAUSES,
    MAX_TERM_CHARS,
    TEXT_FIELDS,
    Clause,
    ParsedQuery,
    Term,
    parse,
)
from services.search.query.reading import read
from services.search.query.text_query import compile_query
from services.search.records.model import title_key
from services.search.records.paper_names import name_key


def terms(parsed: ParsedQuery) -> list[Term]:
    return [t for c in parsed.clauses for t in c.alternatives]


def single(parsed: ParsedQuery) -> list[tuple[Term, bool]]:
    """(term, negated) of single-term clauses, failing on OR groups."""
    assert all(len(c.alternatives) == 1 for c in parsed.clauses)
    return [(c.alternatives[0], c.negated) for c in parsed.clauses]


def W(text: str, field: str | None = None, joined: str = "") -> Term:
    return Term(text, field, joined=joined)


def P(text: str, field: str | None = None) -> Term:
    return Term(text, field, phrase=True)


def X(text: str, field: str | None = None) -> Term:
    return Term(text, field, prefix=True)


def leaves(query: object):
    """Every dict nested in a compiled query (for structural assertions)."""
    if isinstance(query, dict):
        yield query
        for value in query.values():
            yield from leaves(value)
    elif isinstance(query, list):
        for value in query:
            yield from leaves(value)


# --- parser: words, phrases, exclusion ----------------------------------------------------

def test_words_are_separate_required_clauses():
    parsed = parse("graph neural networks")
    assert single(parsed) == [(W("graph"), False), (W("neural"), False), (W("networks"), False)]
    assert parsed.free_text() == "graph neural networks"
    assert not parsed.is_empty


def test_empty_and_blank_queries():
    for q in ("", "   ", "\t\n", "-", "- -- ---", "*", "***", "OR", "OR OR |", '""', '" "', "()"):
        parsed = parse(q)
        assert parsed == ParsedQuery(), q
        assert parsed.is_empty
        assert parsed.free_text() == ""


def test_non_string_input_is_empty():
    assert parse(None).is_empty  # type: ignore[arg-type]
    assert parse(42).is_empty  # type: ignore[arg-type]


def test_quoted_phrase():
    parsed = parse('fast "graph   neural\tnetworks" training')
    assert single(parsed) == [(W("fast"), False), (P("graph neural networks"), False),
                              (W("training"), False)]
    assert parsed.free_text() == "fast graph neural networks training"


def test_quote_inside_a_word_starts_a_phrase():
    assert single(parse('foo"bar baz"')) == [(W("foo"), False), (P("bar baz"), False)]


def test_phrase_without_letters_is_dropped():
    assert parse('"!!! ???" graph').clauses == (Clause((W("graph"),)),)


def test_unclosed_quote_turns_the_rest_into_words():
    assert single(parse('vision "graph neural')) == [(W("vision"), False), (W("graph"), False),
                                                    (W("neural"), False)]


def test_unclosed_quote_drops_negation_and_scope():
    assert single(parse('-"graph neural')) == [(W("graph"), False), (W("neural"), False)]
    assert single(parse('title:"graph neural')) == [(W("graph"), False), (W("neural"), False)]
    # A closed phrase before the stray quote is kept.
    assert single(parse('"a b" c "d')) == [(P("a b"), False), (W("c"), False), (W("d"), False)]


def test_exclusion_of_word_phrase_and_scoped_term():
    parsed = parse('graph -matching -"neural solver" -author:smith')
    assert single(parsed) == [(W("graph"), False), (W("matching"), True),
                              (P("neural solver"), True), (W("smith", "author"), True)]
    assert parsed.free_text() == "graph"


def test_lone_dash_is_ignored_and_inner_dash_is_part_of_the_word():
    assert single(parse("graph - neural")) == [(W("graph"), False), (W("neural"), False)]
    assert single(parse("semi-supervised")) == [(W("semi-supervised"), False)]
    assert single(parse("--graph")) == [(W("graph"), True)]
    assert single(parse("graph -")) == [(W("graph"), False)]


def test_duplicate_clauses_are_merged():
    assert single(parse("graph graph -x -x")) == [(W("graph"), False), (W("x"), True)]


# --- parser: OR -----------------------------------------------------------------------------

def test_or_groups():
    parsed = parse("gnn OR transformer | mlp")
    assert parsed.clauses == (Clause((W("gnn"), W("transformer"), W("mlp"))),)
    assert parse("gnn|transformer").clauses == (Clause((W("gnn"), W("transformer"))),)


def test_or_binds_only_neighbours():
    parsed = parse("vision gnn OR transformer robust")
    assert parsed.clauses == (Clause((W("vision"),)), Clause((W("gnn"), W("transformer"))),
                              Clause((W("robust"),)))
    # OR groups are not part of the free text (they are not a title someone typed).
    assert parsed.free_text() == "vision robust"


def test_leading_trailing_and_double_or_degrade():
    assert single(parse("OR gnn")) == [(W("gnn"), False)]
    assert single(parse("gnn OR")) == [(W("gnn"), False)]
    assert parse("gnn OR OR mlp").clauses == (Clause((W("gnn"), W("mlp"))),)
    assert parse("gnn || mlp").clauses == (Clause((W("gnn"), W("mlp"))),)
    assert parse("OR OR").is_empty


def test_lowercase_or_and_quoted_or_are_words():
    assert single(parse("gnn or mlp")) == [(W("gnn"), False), (W("or"), False), (W("mlp"), False)]
    assert single(parse('gnn "OR" mlp')) == [(W("gnn"), False), (P("OR"), False), (W("mlp"), False)]


def test_negation_breaks_or():
    assert single(parse("-gnn OR mlp")) == [(W("gnn"), True), (W("mlp"), False)]
    assert single(parse("gnn OR -mlp")) == [(W("gnn"), False), (W("mlp"), True)]


def test_filters_break_or():
    parsed = parse("gnn OR conference:iclr OR mlp")
    assert single(parsed) == [(W("gnn"), False), (W("mlp"), False)]
    assert parsed.conferences == ("iclr",)


def test_or_between_scoped_terms_and_phrases():
    parsed = parse('title:"graph neural" OR author:hinton OR diffus*')
    assert parsed.clauses == (Clause((P("graph neural", "title"), W("hinton", "author"),
                                      X("diffus"))),)


def test_or_skips_dropped_terms():
    assert parse("gnn OR *** mlp").clauses == (Clause((W("gnn"), W("mlp"))),)


# --- parser: prefixes ---------------------------------------------------------------------

@pytest.mark.parametrize("q, expected", [
    ("transfor*", [X("transfor")]),
    ("Transfor**", [X("Transfor")]),
    ("ab*", [X("ab")]),
    ("a*", [W("a")]),          # too short: plain word
    ("é*", [W("é")]),
    ("*", []),
    ("***", []),
    ("(a*", [W("a")]),
    ("*graph", [W("graph")]),  # leading star: just punctuation
    ("gr*ph", [W("gr*ph")]),   # inner star: left to the analyzer
    ("graph-neu*", [X("graph-neu")]),
])
def test_prefix(q, expected):
    assert terms(parse(q)) == expected


# --- parser: field scopes ---------------------------------------------------------------

def test_text_scopes():
    parsed = parse('title:"graph neural" author:hinton abstract:diffusion aff:toronto title:trans*')
    assert single(parsed) == [(P("graph neural", "title"), False), (W("hinton", "author"), False),
                              (W("diffusion", "abstract"), False), (W("toronto", "aff"), False),
                              (X("trans", "title"), False)]
    assert parsed.free_text() == ""


def test_scope_names_are_case_insensitive_and_have_aliases():
    assert terms(parse("TITLE:gnn Author:x Affiliation:mit AUTHORS:y")) == [
        W("gnn", "title"), W("x", "author"), W("mit", "aff"), W("y", "author")]


def test_scope_with_nothing_after_it_is_ignored():
    assert parse("title:").is_empty
    assert single(parse("title: gnn")) == [(W("gnn"), False)]
    assert parse("author:*** conference: year:").is_empty


def test_unknown_scope_is_plain_words():
    # ... also kept whole, as the index keeps a colon between two letters ("N:M" is one token there)
    assert single(parse("foo:bar")) == [(W("foo bar", joined="foo:bar"), False)]
    assert single(parse("http://example.org")) == [(W("http //example.org"), False)]
    assert parse("foo:bar").free_text() == "foo bar"
    assert single(parse("2:4")) == [(W("2 4"), False)]  # digits: two tokens in the index too


def test_colon_inside_a_scoped_value_splits_words():
    assert terms(parse("title:bert:pretraining")) == [W("bert pretraining", "title", joined="bert:pretraining")]


def test_a_word_joined_by_a_colon_matches_as_typed_or_split():
    query = json.dumps(compile_query(read(parse("N:M sparsity"))))
    assert '"query": "N M"' in query and '"query": "N:M"' in query


def test_conference_scope_is_a_filter():
    parsed = parse("gnn conference:NIPS Conference:iclr conference:neurips")
    assert parsed.conferences == ("neurips", "iclr")
    assert single(parsed) == [(W("gnn"), False)]
    assert parsed.free_text() == "gnn"
    assert parse('conference:"Siggraph Asia"').conferences == ("siggraphasia",)  # an alias
    assert parse("conference:!!!").is_empty


def test_conference_only_query_is_not_empty():
    parsed = parse("conference:iclr")
    assert not parsed.is_empty
    assert parsed.clauses == ()


@pytest.mark.parametrize("q, years", [
    ("year:2021", ((2021, 2021),)),
    ("year:2018-2022", ((2018, 2022),)),
    ("year:2018..2022", ((2018, 2022),)),
    ("year:2022-2018", ((2018, 2022),)),  # reversed range: swapped
    ("year:>=2020", ((2020, MAX_YEAR),)),
    ("year:>2020", ((2021, MAX_YEAR),)),
    ("year:<=2019", ((MIN_YEAR, 2019),)),
    ("year:<2019", ((MIN_YEAR, 2018),)),
    ('year:"2021"', ((2021, 2021),)),
    ("YEAR:2021 year:2021 year:2019", ((2021, 2021), (2019, 2019))),
])
def test_year_scope(q, years):
    parsed = parse(q)
    assert parsed.years == years
    assert parsed.clauses == ()


@pytest.mark.parametrize("q, words", [
    ("year:abc", "year abc"),
    ("year:21", "year 21"),
    ("year:20211", "year 20211"),
    ("year:9999", "year 9999"),
    ("year:<1900", "year <1900"),
    ("year:>2100", "year >2100"),
    ("year:2020-", "year 2020"),
    ("year:２０２１", "year ２０２１"),  # full-width digits are not a year
])
def test_invalid_year_degrades_to_words(q, words):
    parsed = parse(q)
    assert parsed.years == ()
    assert terms(parsed) == [W(words)]


def test_negated_filters_become_exclusions():
    parsed = parse("gnn -conference:nips -year:<2018 -year:2020")
    assert parsed.conferences == () and parsed.years == ()
    assert parsed.excluded_conferences == ("neurips",)
    assert parsed.excluded_years == ((MIN_YEAR, 2017), (2020, 2020))
    assert single(parsed) == [(W("gnn"), False)]


# --- parser: hostile and odd input -------------------------------------------------------

def test_es_reserved_characters_are_not_terms():
    assert parse(r'(){}[]^~:/\! && || <> = @ # $ % & ? ; ` \\').is_empty
    assert terms(parse(r'(graph) [neural]^2 net~ a\b')) == [W("graph"), W("neural]^2"), W("net"),
                                                              W(r"a\b")]


def test_backslash_escapes_nothing():
    # The quotes still delimit a phrase; backslashes are plain characters (a lone one is dropped).
    assert terms(parse(r'\"graph neural\"')) == [P("graph neural\\")]
    assert terms(parse(r'a\\b \\')) == [W(r"a\\b")]


def test_control_characters_split_words():
    assert terms(parse("graph\x00neural\x1fnet\x7fwork")) == [W("graph"), W("neural"), W("net"),
                                                             W("work")]


def test_ligatures_of_a_pasted_title_are_spelt_out():
    # as the indexer stores the title (services.indexer.cleaning.text): a pasted "Classiﬁcation" matches it
    assert parse("Multi-Label Classiﬁcation").free_text() == "Multi-Label Classification"


def test_lone_surrogates_are_removed():
    parsed = parse("graph\ud800neural")
    assert terms(parsed) == [W("graph"), W("neural")]
    json.dumps(compile_query(read(parsed)), ensure_ascii=False).encode("utf-8")


def test_unicode_words():
    decomposed = unicodedata.normalize("NFD", "café")
    parsed = parse(f"神经网络 naïve {decomposed} Ünïcödé* 😀")
    assert terms(parsed) == [W("神经网络"), W("naïve"), W(decomposed), X("Ünïcödé")]


def test_long_input_is_truncated():
    parsed = parse("graph " + "x" * 10_000)
    assert terms(parsed) == [W("graph"), W("x" * MAX_TERM_CHARS)]
    assert terms(parse('"' + "ab " * 100 + '"')) == [P(" ".join(["ab"] * 100)[:MAX_TERM_CHARS])]
    # Only the first MAX_QUERY characters are read.
    assert parse("a " * MAX_QUERY + "zzz").free_text().count("zzz") == 0


def test_clause_limit_on_words():
    parsed = parse(" ".join(f"w{i}" for i in range(100)))
    assert len(parsed.clauses) == MAX_CLAUSES
    assert terms(parsed)[-1] == W(f"w{MAX_CLAUSES - 1}")


def test_clause_limit_on_or_chain():
    parsed = parse(" OR ".join(f"w{i}" for i in range(100)))
    assert len(parsed.clauses) == 1
    assert len(parsed.clauses[0].alternatives) == MAX_CLAUSES


def test_clause_limit_counts_filters():
    q = " ".join(f"conference:c{i}" for i in range(20)) + " " + " ".join(f"w{i}" for i in range(20))
    parsed = parse(q)
    assert len(parsed.conferences) == 20
    assert len(parsed.clauses) == MAX_CLAUSES - 20


# --- parser: free text --------------------------------------------------------------------

def test_free_text_keeps_only_positive_unscoped_words_and_phrases():
    parsed = parse('attention "is all" you -need author:vaswani trans* a OR b need conference:iclr')
    assert parsed.free_text() == "attention is all you need"


# --- compiler ------------------------------------------------------------------------------

def compiled(q: str) -> dict:
    query = compile_query(read(parse(q)))
    json.dumps(query)
    return query["bool"]


def word_clauses(body: dict) -> list:
    """The clauses of the words, one each, as ``must`` of a query holds them (or, for a few plain words, as
    the first alternative to the words as one paper's name: test_a_few_words_that_are_a_papers_name_...)."""
    must = body["must"]
    if len(must) == 1 and "dis_max" in must[0]:
        return must[0]["dis_max"]["queries"][0]["bool"]["must"]
    return must


def word_query(text: str, zero_terms: bool = True) -> dict:
    """A plain word: every word field, or a paper's name whose key it is."""
    mm = {"query": text, "type": "cross_fields", "operator": "and",
          "fields": list(text_query.WORD_FIELDS)}
    if zero_terms:
        mm["zero_terms_query"] = "all"
    return named({"multi_match": mm}, text)


def named(query: dict, text: str) -> dict:
    key = name_key(text)
    keys = {"multi_match": {"query": key, "type": "most_fields", "boost": text_query.NAME_KEY_BOOST,
                            "fields": ["name_keys", "title_contractions"]}}
    return {"dis_max": {"queries": [query, keys]}} if key else query


def typed_query(text: str) -> dict:
    """The last word: the word, or a word it starts in titles, author names and keywords."""
    prefixes = [{"prefix": {field: {"value": text, "boost": boost, "rewrite": f"top_terms_{PREFIX_EXPANSIONS}"}}}
                for field, boost in (("title.exact", 4.0), ("authors_folded", 2.0), ("keywords.exact", 2.0))]
    return {"bool": {"should": [word_query(text), {"bool": {"should": prefixes, "minimum_should_match": 1}}],
                     "minimum_should_match": 1}}


def test_compile_empty_query_is_match_all():
    assert compile_query(read(parse(""))) == {"bool": {"must": [{"match_all": {}}]}}
    assert compile_query(read(parse("***"))) == {"bool": {"must": [{"match_all": {}}]}}


def test_compile_filters_only_query_is_match_all():
    # Positive conference/year values are applied by the caller, not by the text query.
    assert compile_query(read(parse("conference:iclr year:2020"))) == {"bool": {"must": [{"match_all": {}}]}}


def test_compile_one_cross_fields_clause_per_word():
    body = compiled("hinton belief")
    # The last word as typed, or cut in a title the whole text starts (test_a_cut_last_word_may_match_...).
    words = word_clauses(body)
    assert words[0] == word_query("hinton") and words[1]["bool"]["should"][0] == word_query("belief")
    assert compiled("hinton")["must"] == [word_query("hinton")]
    # When the words as typed found too little, the search asks again with the last word as a prefix.
    expanded = word_clauses(compile_query(read(parse("hinton belief")), expand_last=True)["bool"])
    assert expanded == [word_query("hinton"), typed_query("belief")]
    # As typed, the words it starts only score ("networks" counts again where "network" starts a title word).
    assert {"bool": {"should": [{"prefix": {f: {"value": "belief", "boost": b, "rewrite": f"top_terms_{PREFIX_EXPANSIONS}"}}}
                                for f, b in (("title.exact", 4.0), ("keywords.exact", 2.0))],
                     "minimum_should_match": 1}} in body["should"]
    assert len(compiled("graph author:bengio")["should"]) == 1  # an author being typed adds no score-only prefix
    fields = words[0]["dis_max"]["queries"][0]["multi_match"]["fields"]
    assert fields[:5] == ["title^4", "keywords^2", "topic_labels^1.5", "authors_folded^2", "affiliations^1"]
    assert {"affiliations^1", "abstract^1", "tldr^1"} <= set(fields)
    assert "must_not" not in body


def test_compile_should_boosts():
    body = compiled("Graph Neural Networks: A Review")
    should = body["should"]
    # The unstemmed boost leaves stopwords ("A") out; the phrases keep the whole text.
    assert {"multi_match": {"query": "Graph Neural Networks Review", "type": "most_fields",
                            "fields": ["title.exact^3", "abstract.exact^0.5"]}} in should
    assert {"match_phrase": {"title": {"query": "Graph Neural Networks A Review", "slop": 2,
                                       "boost": 10.0}}} in should
    assert {"match_phrase": {"abstract": {"query": "Graph Neural Networks A Review", "slop": 2,
                                          "boost": 2.0}}} in should
    assert not any("term" in q for q in should)  # the exact title is a factor of services.search.query.ranking


@pytest.mark.parametrize("text, phrases", [("and the", False), ("Learning to", False), ("learning to rank", True)])
def test_stopwords_alone_add_no_unstemmed_or_phrase_boost(text, phrases):
    should = compiled(text)["should"]
    exact = [q["multi_match"]["query"] for q in should if "multi_match" in q]
    assert exact == ([] if text == "and the" else [" ".join(w for w in text.split() if w.lower() not in ("to", "the"))])
    assert any("match_phrase" in q for q in should) is phrases


def test_compile_single_word_has_no_phrase_boost():
    should = compiled("transformers")["should"]
    assert not any("match_phrase" in q for q in should)


def test_compile_phrase_uses_unstemmed_fields():
    body = compiled('"learning to rank"')
    mm = body["must"][0]["multi_match"]
    assert mm["type"] == "phrase" and mm["query"] == "learning to rank"
    assert "title.exact^4" in mm["fields"] and "abstract.exact^1" in mm["fields"]
    assert "authors_folded^2" in mm["fields"] and not any(f.startswith("name") for f in mm["fields"])
    assert not any(f.split("^")[0] in ("title", "abstract", "tldr", "keywords") for f in mm["fields"])


def test_compile_simple_prefix_is_lowercased_prefix_queries():
    body = compiled("Transfor*")
    group = body["must"][0]["bool"]
    assert group["minimum_should_match"] == 1
    capped = {"value": "transfor", "rewrite": f"top_terms_{PREFIX_EXPANSIONS}"}
    assert {"prefix": {"title.exact": {**capped, "boost": 4.0}}} in group["should"]
    assert {"prefix": {"authors_folded": {**capped, "boost": 2.0}}} in group["should"]
    assert {"prefix": {"abstract.exact": {**capped, "boost": 1.0}}} in group["should"]
    assert "should" not in body  # a prefix is not free text


def test_prefix_terms_beyond_the_limit_match_as_words():
    query = " OR ".join(f"{a}{b}*" for a in "abcdef" for b in "aeiou")  # 30 OR'd prefixes
    group = compiled(query)["must"][0]["bool"]["should"]
    prefixes = [q for q in group if "prefix" in json.dumps(q)]
    assert len(prefixes) == MAX_PREFIX_TERMS
    assert len(group) == 30


def test_multi_token_prefix_expansion_is_capped():
    assert compiled("graph-neu*")["must"][0]["multi_match"]["max_expansions"] == PREFIX_EXPANSIONS


def test_compile_multi_token_prefix_is_phrase_prefix():
    mm = compiled("graph-neu*")["must"][0]["multi_match"]
    assert mm["type"] == "phrase_prefix" and mm["query"] == "graph-neu"
    assert "title.exact^4" in mm["fields"]


def test_compile_scoped_terms():
    must = compiled('title:gnn title:"graph neural" title:gra* author:"geoffrey hinton" '
                    "author:hinton abstract:diffusion aff:toronto")["must"]
    assert must[0] == {"multi_match": {"query": "gnn", "type": "best_fields", "operator": "and",
                                       "fields": ["title", "title.exact"]}}
    assert must[1] == {"match_phrase": {"title.exact": {"query": "graph neural"}}}
    assert must[2] == {"prefix": {"title.exact": {"value": "gra", "boost": 1.0,
                                                  "rewrite": f"top_terms_{PREFIX_EXPANSIONS}"}}}
    assert must[3] == {"match_phrase": {"authors_folded": {"query": "geoffrey hinton"}}}
    assert must[4] == {"match": {"authors_folded": {"query": "hinton", "operator": "and"}}}
    assert must[5]["multi_match"]["fields"] == ["abstract", "abstract.exact"]
    assert must[6] == {"match": {"affiliations": {"query": "toronto", "operator": "and"}}}


def test_compile_or_group():
    must = compiled("gnn OR author:hinton")["must"]
    assert must == [{"bool": {"should": [word_query("gnn"), {"match": {"authors_folded": {
        "query": "hinton", "operator": "and"}}}], "minimum_should_match": 1}}]


def test_compile_negations_go_to_must_not():
    body = compiled('graph -matching -"neural solver" -author:smith')
    assert body["must"] == [word_query("graph")]
    must_not = body["must_not"]
    # A negated stopword must not turn into "exclude everything".
    assert must_not[0] == word_query("matching", zero_terms=False)
    assert must_not[1]["multi_match"]["type"] == "phrase"
    assert must_not[2] == {"match": {"authors_folded": {"query": "smith", "operator": "and"}}}


def test_compile_only_negations_is_match_all_plus_must_not():
    body = compiled("-matching -author:smith")
    assert body["must"] == [{"match_all": {}}]
    assert len(body["must_not"]) == 2
    assert "should" not in body


def test_compile_excluded_filters():
    body = compiled("-conference:nips -conference:iclr -year:<2018")
    assert body["must"] == [{"match_all": {}}]
    assert body["must_not"] == [{"terms": {"conference": ["neurips", "iclr"]}},
                                {"range": {"year": {"gte": MIN_YEAR, "lte": 2017}}}]


def test_compile_uses_module_weights(monkeypatch):
    monkeypatch.setattr(text_query, "WORD_FIELDS", ("title^9", "abstract^0.1"))
    monkeypatch.setattr(text_query, "TITLE_PHRASE_BOOST", 7.0)
    body = compiled("graph neural")
    assert word_clauses(body)[0]["dis_max"]["queries"][0]["multi_match"]["fields"] == ["title^9", "abstract^0.1"]
    assert {"match_phrase": {"title": {"query": "graph neural", "slop": 2, "boost": 7.0}}} in body["should"]


def test_a_few_words_that_are_a_papers_name_match_it_whole():
    """"faster rcnn" is "Faster R-CNN" (key "fasterrcnn"), whose title has no word "rcnn": the words, or else
    the words as one name; the better of the two scores, so a paper with the words scores as it did."""
    must = compiled("faster rcnn")["must"]
    assert len(must) == 1
    words, whole = must[0]["dis_max"]["queries"]
    assert words["bool"]["must"][0] == word_query("faster")
    assert whole == {"multi_match": {"query": "fasterrcnn", "type": "most_fields", "boost": text_query.NAME_KEY_BOOST,
                                     "fields": ["name_keys", "title_contractions"]}}
    # One word is a name by itself already; four words are no name; scoped, quoted, cut or excluded words are
    # what they say, not a name.
    for q in ("rcnn", "faster region based convolutional", 'title:faster rcnn', '"faster rcnn"', "faster rcnn*",
              "faster -rcnn", "faster OR rcnn"):
        assert "fasterrcnn" not in json.dumps(compiled(q)), q


def test_compile_single_weighted_field_keeps_the_boost(monkeypatch):
    monkeypatch.setattr(text_query, "WORD_FIELDS", ("title^9",))
    assert compiled("graph")["must"][0] == named({"match": {"title": {
        "query": "graph", "operator": "and", "zero_terms_query": "all", "boost": 9.0}}}, "graph")


def test_a_typed_plural_meets_a_name_by_its_singular_too():
    """`gans` meets the key of "GAN" as well as that of a name written "GANs" (the better of the two counts)."""
    keys = compiled("gans")["must"][0]["dis_max"]["queries"][1]
    assert [q["multi_match"]["query"] for q in keys["dis_max"]["queries"]] == ["gans", "gan"]
    assert "dis_max" not in compiled("gan")["must"][0]["dis_max"]["queries"][1]


def test_compile_clause_limit_bounds_query_size():
    q = " ".join(f"w{i}" for i in range(500))
    body = compiled(q)
    assert len(body["must"]) == MAX_CLAUSES
    assert len(json.dumps(body)) < 20_000


def test_compile_hand_built_unknown_scope_is_searched_everywhere():
    parsed = ParsedQuery(clauses=(Clause((Term("gnn", "venue"),)),))
    assert compile_query(read(parsed))["bool"]["must"] == [word_query("gnn")]


# --- properties: never raise, always JSON --------------------------------------------------

SYNTAX = st.lists(st.sampled_from([
    "a", "gnn", "Graph", "é", "神经", " ", "  ", "\t", '"', "-", "--", "*", "|", "OR", "or", ":",
    "title:", "TITLE:", "author:", "abstract:", "aff:", "conference:", "year:", "foo:",
    "2018", "2022", "-2019", ">=", "<", "..", "(", ")", "{", "}", "[", "]", "^", "~", "/", "\\",
    "!", "\x00", "\ud800", "\u200b", "😀",
]), max_size=60).map("".join)


def check_invariants(q: str) -> None:
    parsed = parse(q)
    all_terms = terms(parsed)
    assert len(all_terms) + len(parsed.conferences) + len(parsed.years) \
        + len(parsed.excluded_conferences) + len(parsed.excluded_years) <= MAX_CLAUSES
    for term in all_terms:
        assert term.text and term.text == term.text.strip()
        assert len(term.text) <= MAX_TERM_CHARS
        assert any(ch.isalnum() for ch in term.text)
        assert '"' not in term.text
        assert term.phrase or "|" not in term.text
        assert not any(unicodedata.category(ch) in ("Cc", "Cs") for ch in term.text)
        assert term.field is None or term.field in TEXT_FIELDS
        assert not (term.phrase and term.prefix)
        if term.prefix:
            assert sum(ch.isalnum() for ch in term.text) >= 2
    for low, high in parsed.years + parsed.excluded_years:
        assert MIN_YEAR <= low <= high <= MAX_YEAR
    assert all(parsed.conferences) and all(parsed.excluded_conferences)
    assert parse(q) == parsed  # deterministic
    query = compile_query(read(parsed))
    # ES receives UTF-8 JSON: no lone surrogates may survive into the query text.
    json.dumps(query, ensure_ascii=False).encode("utf-8")
    assert set(query) == {"bool"} and query["bool"]["must"]
    for leaf in leaves(query):
        if "query" in leaf and isinstance(leaf["query"], str):
            assert leaf["query"].strip()


@settings(max_examples=400, deadline=None)
@given(st.text())
def test_property_arbitrary_text_never_raises(q):
    check_invariants(q)


@settings(max_examples=600, deadline=None)
@given(SYNTAX)
def test_property_syntax_soup_never_raises(q):
    check_invariants(q)


@settings(max_examples=50, deadline=None)
@given(st.text(min_size=MAX_QUERY, max_size=4 * MAX_QUERY))
def test_property_long_text_never_raises(q):
    check_invariants(q)


def test_quoted_invalid_year_is_a_phrase_not_a_word_with_punctuation():
    # Found by the property test: year:"|a" gave the plain word "year |a".
    (clause,) = parse('year:"|a"').clauses
    assert clause.alternatives[0].phrase
    assert parse('year:"foo bar"').clauses[0].alternatives[0] == Term("year foo bar", None, phrase=True)


def test_a_hyphenated_word_is_one_compound_not_two_words_anywhere():
    words = word_clauses(compiled("self-consistency wang"))
    assert words[0] == named({"multi_match": {"query": "self-consistency", "type": "phrase",
                                              "fields": list(text_query.WORD_FIELDS)}}, "self-consistency")
    assert words[1]["bool"]["should"][0] == word_query("wang")  # or cut in the title the text starts
    assert compiled("consistency -self-supervised")["must_not"][0]["dis_max"]["queries"][0]["multi_match"]["type"] == "phrase"


@pytest.mark.parametrize("q, start", [
    ("Integrated Defense for Res", "integrated defense for res"),  # two words or more, the last one cut
    ("Buying Inf", "buying inf"),
    ("graph neural networks", "graph neural networks"),  # a whole word: the titles it starts hold it anyway
    ("lora", None),  # one word starts hundreds of titles
    ("deep learning for", None),  # a small word last is whole
    ('"deep learning" theo', "deep learning theo"),  # a phrase before the cut word is still the title's start
    ('deep "learning theo"', None),  # a phrase last is taken as meant
    ("graph -neural", None),  # an exclusion last: nothing is being typed
])
def test_a_cut_last_word_may_match_the_title_the_whole_text_starts(q, start):
    query = json.dumps(compile_query(read(parse(q))))
    assert (f'{{"prefix": {{"title_key": "{start}"}}}}' in query) if start else ('"title_key"' not in query)
    if start:  # as an alternative to the word as typed, never where the word itself matches
        assert '"must_not"' in query and start == title_key(q)
    assert '"title_key"' not in json.dumps(compile_query(read(parse(q)), expand_last=True))  # expanded everywhere then
