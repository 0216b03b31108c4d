"""Autocomplete: what to ask Elasticsearch for a typed prefix, and the suggestions of its answer.

Titles are found three ways in one request. A paper whose name or whole title the prefix is
("detr", "lora", "segment anything"; :mod:`services.search.records.paper_names`), or whose name it starts
("direct preference optim"), comes first, the paper that introduced the name before the
others that bear it; its suggestion says the name ("End-to-End Object Detection with
Transformers", "DETR · ECCV 2020"). The completion suggester finds titles that start with
the prefix (weighted by citations and recency); a query over ``title.exact`` (its
``index_prefixes`` make the last, unfinished word cheap) finds the typed words anywhere in a
title: every word must be there, the last one as a prefix, and titles holding them as a
phrase ("... is secretly a reward model") rank above titles holding them apart. Named papers
come first, then starts, then the rest by that score; a title is offered once. People come
from the people index's completion field (every word of any spelling can start it, accents folded:
"scholkopf" suggests Bernhard Schölkopf), the most papers first, each with what tells two people of
one name apart ("Yang Liu · Tsinghua University") and their own page; a name whose people are not
decided yet is offered from the papers' author field, as a name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from services.search.catalogue import taxonomy, venues
from services.search.records.documents import name_of_rotation
from services.search.records.model import title_key
from services.search.records.name_keys import author_key, block_key
from services.search.records.paper_names import query_key, search_keys
from services.search.records.people import Person

MIN_WORDS_PREFIX = 2  # index_prefixes' min_chars: shorter prefixes only complete title starts
PHRASE_BOOST = 4.0
MIN_NAME_START = 3  # a name's start counts from this many characters of its key ("dir" of "direct ...")
# Scores of the named papers: far above any score of words in a title, the name's introducer first.
NAMED = {"intro": 4000.0, "title": 3000.0, "name": 2000.0, "intro_start": 1500.0, "name_start": 1000.0}
NAMED_FLOOR = min(NAMED.values())
EXACT_FLOOR = NAMED["name"]  # the prefix is the paper's whole name or title: it comes before everything else

SUGGESTION_KINDS = ("title", "person", "author", "topic", "conference")
PEOPLE_SUGGESTED = 4  # people (and names without people) offered for a prefix


@dataclass(frozen=True)
class Suggestion:
    """A completion; ``key`` identifies what it opens (slug, person id, author name or paper id), the web makes
    the URL."""

    kind: str  # one of SUGGESTION_KINDS
    text: str
    key: str
    detail: str = ""  # what tells two alike apart: a title's venue and year, a person's papers and years


def suggest_body(prefix: str, size: int) -> dict[str, Any]:
    """The request: completions of titles and authors, and (for 2+ characters) titles with the words anywhere."""
    body: dict[str, Any] = {
        "size": 0,
        "_source": ["paper_id", "title", "author_names", "conference", "year", "names", "given_names"],
        "suggest": {
            "title": {"prefix": prefix, "completion": {"field": "title_suggest", "size": size,
                                                        "skip_duplicates": True}},
            "author": {"prefix": prefix, "completion": {"field": "author_suggest", "size": 4,
                                                         "skip_duplicates": True}},
        },
    }
    if len(prefix) >= MIN_WORDS_PREFIX:
        words: dict[str, Any] = {"must": [{"match_bool_prefix": {"title.exact": {"query": prefix, "operator": "and"}}}]}
        if len(prefix.split()) > 1:  # one word is its own phrase: no second clause to pay for
            words["should"] = [{"match_phrase_prefix": {"title.exact": {"query": prefix, "boost": PHRASE_BOOST}}}]
        body.update(size=size, sort=["_score", {"year": "desc"}, {"paper_id": "asc"}], track_total_hits=False,
                    query={"bool": {"should": [{"bool": words}, *_named(prefix)], "minimum_should_match": 1}})
    return body


def _named(prefix: str) -> list[dict[str, Any]]:
    """Papers the prefix names: an introduced name, a whole title, a name, or their starts (:data:`NAMED`)."""
    key, title = query_key(prefix), title_key(prefix)
    clauses = [("title", {"term": {"title_key": title}})] if title else []
    if key:
        clauses += [("intro", {"term": {"intro_keys": key}}), ("name", {"term": {"name_keys": key}})]
        if len(key) >= MIN_NAME_START:
            clauses += [("intro_start", {"prefix": {"intro_keys": key}}), ("name_start", {"prefix": {"name_keys": key}})]
    return [{"constant_score": {"filter": f, "boost": NAMED[kind]}} for kind, f in clauses]


def person_suggestion(person: Person) -> Suggestion:
    papers = f"{person.papers:,} paper{'' if person.papers == 1 else 's'}"
    return Suggestion("person", person.label, person.person_id, ", ".join(p for p in (papers, person.years) if p))


def shape_suggestions(prefix: str, resp: dict[str, Any], size: int, people: Sequence[Person] = ()) -> list[Suggestion]:
    """The papers the prefix names exactly ("lora", "detr"), then conferences and topics by name, then ``people``
    and the names no person holds yet, then the other titles (starts first), at most ``size + 4``."""
    titles = _title_suggestions(prefix, resp, size)
    exact = [s for s, score in titles if score >= EXACT_FLOOR]
    out: list[Suggestion] = list(exact)
    lowered = prefix.lower()
    for conf in venues.KNOWN:
        if conf.name.lower().startswith(lowered) or conf.slug.startswith(lowered):
            out.append(Suggestion("conference", conf.name, conf.slug))
    for topic in taxonomy.TOPICS:
        if any(w.startswith(lowered) for w in [topic.label.lower(), *topic.label.lower().split()]):
            out.append(Suggestion("topic", topic.label, topic.slug))
    out.extend(person_suggestion(p) for p in people[:PEOPLE_SUGGESTED])
    decided = {p.name_key for p in people}
    suggest = resp.get("suggest", {})
    authors: set[str] = set()
    for option in suggest.get("author", [{}])[0].get("options", []):
        name = name_of_rotation(option["text"], (option.get("_source") or {}).get("author_names") or [])
        if author_key(name) not in authors and block_key(name) not in decided and len(authors) + len(people) < PEOPLE_SUGGESTED:
            authors.add(author_key(name))
            out.append(Suggestion("author", name, name))
    out.extend(s for s, score in titles if score < EXACT_FLOOR)
    return out[: size + 4]


def _title_suggestions(prefix: str, resp: dict[str, Any], size: int) -> list[tuple[Suggestion, float]]:
    """At most ``size`` titles, each once, with the score that ranked them: named papers, starts, the rest."""
    hits = resp.get("hits", {}).get("hits", [])
    named = [h for h in hits if _score(h) >= NAMED_FLOOR]
    # A completion's text is its input, the title's first 100 characters: the whole title is in _source.
    starts = [(o["_id"], (o.get("_source") or {}).get("title") or o["text"], o.get("_source") or {}, 0.0)
              for o in resp.get("suggest", {}).get("title", [{}])[0].get("options", [])]
    titles: dict[str, tuple[Suggestion, float]] = {}
    for paper_id, text, source, score in [*_titles(named), *starts, *_titles(hits)]:
        if paper_id not in titles and text and len(titles) < size:
            titles[paper_id] = (Suggestion("title", text, paper_id, _detail(source, prefix)), score)
    return list(titles.values())


def _score(hit: dict[str, Any]) -> float:
    return (hit.get("sort") or [0])[0]


def _titles(hits: list[dict[str, Any]]) -> list[tuple[str, str, dict[str, Any], float]]:
    return [(h["_id"], (h.get("_source") or {}).get("title", ""), h.get("_source") or {}, _score(h)) for h in hits]


def _detail(source: dict[str, Any], prefix: str = "") -> str:
    """What tells two like titles apart: the name the prefix matched, the venue and year ("DETR · ECCV 2020")."""
    key = query_key(prefix)
    names = [n for n in [*(source.get("names") or []), *(source.get("given_names") or [])]
             if key and any(k.startswith(key) for k in search_keys(n)) and n.lower() != (source.get("title") or "").lower()]
    venue = f"{venues.label(source['conference'])} {source.get('year', '')}".strip() if source.get("conference") else ""
    return " · ".join(part for part in (names[0] if names else "", venue) if part)
