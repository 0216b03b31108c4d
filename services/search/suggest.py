"""Autocomplete: what to ask Elasticsearch for a typed prefix, and the suggestions of its answer.

Titles are found two ways in one request. The completion suggester finds titles that
start with the prefix (weighted by citations and recency); a query over ``title.exact``
(its ``index_prefixes`` make the last, unfinished word cheap) finds the typed words
anywhere in a title: every word must be there, the last one as a prefix, and titles
holding them as a phrase ("... is secretly a reward model") rank above titles holding
them apart. Starts come first, then the rest by that score; a title is offered once.
Authors come from their own completion field (every word of a name can start it).
"""

from __future__ import annotations

from typing import Any

from . import conferences, taxonomy
from .reads import Suggestion
from .documents import name_of_rotation

MIN_WORDS_PREFIX = 2  # index_prefixes' min_chars: shorter prefixes only complete title starts
PHRASE_BOOST = 4.0


def suggest_body(prefix: str, size: int) -> dict[str, Any]:
    """The request: completions of titles and authors, and (for 2+ characters) titles with the words anywhere."""
    body: dict[str, Any] = {
        "size": 0,
        "_source": ["paper_id", "title", "author_names", "conference", "year"],
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
                    query={"bool": words})
    return body


def shape_suggestions(prefix: str, resp: dict[str, Any], size: int) -> list[Suggestion]:
    """Conferences and topics by name, then authors, then titles (starts first), at most ``size + 4``."""
    out: list[Suggestion] = []
    lowered = prefix.lower()
    for conf in conferences.KNOWN:
        if conf.name.lower().startswith(lowered) or conf.slug.startswith(lowered):
            out.append(Suggestion("conference", conf.name, conf.slug))
    for topic in taxonomy.TOPICS:
        if any(w.startswith(lowered) for w in [topic.label.lower(), *topic.label.lower().split()]):
            out.append(Suggestion("topic", topic.label, topic.slug))
    suggest = resp.get("suggest", {})
    authors: list[str] = []
    for option in suggest.get("author", [{}])[0].get("options", []):
        name = name_of_rotation(option["text"], (option.get("_source") or {}).get("author_names") or [])
        if name not in authors:
            authors.append(name)
            out.append(Suggestion("author", name, name))
    titles: dict[str, Suggestion] = {}
    # A completion's text is its input, the title's first 100 characters: the whole title is in _source.
    starts = [(o["_id"], (o.get("_source") or {}).get("title") or o["text"], o.get("_source") or {})
              for o in suggest.get("title", [{}])[0].get("options", [])]
    anywhere = [(h["_id"], (h.get("_source") or {}).get("title", ""), h.get("_source") or {})
                for h in resp.get("hits", {}).get("hits", [])]
    for paper_id, text, source in starts + anywhere:
        if paper_id not in titles and text and len(titles) < size:
            titles[paper_id] = Suggestion("title", text, paper_id, _detail(source))
    out.extend(titles.values())
    return out[: size + 4]


def _detail(source: dict[str, Any]) -> str:
    """What tells two like titles apart: the venue and year."""
    if not source.get("conference"):
        return ""
    return f"{conferences.label(source['conference'])} {source.get('year', '')}".strip()
