"""An author's page: its read's body, and the figures computed from what Elasticsearch returns:
co-authors merged by key, the canonical spelling of a name, the author's own affiliations,
whether a name looks shared by several people, and whether two records are versions of one work.

No disambiguation: these only group spellings and describe the papers found.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from services.search.query.search_body import HIDDEN, VISIBLE
from services.search.query.sorting import BROWSE_SORT, sort_clauses
from services.search.records.documents import SUMMARY_FIELDS, from_source
from services.search.records.model import Paper, title_key
from services.search.records.name_keys import author_key, coauthor_key

from .browse import AuthorProfile

_PROFILE_AGGS = {
    "years": {"terms": {"field": "year", "size": 100, "order": {"_key": "desc"}}},
    # More buckets than shown: spellings of one co-author merge in Python (merged_coauthors).
    "coauthors": {"terms": {"field": "author_names.raw", "size": 60}},
    "conferences": {"terms": {"field": "conference", "size": 50}},
}

# A name looks shared when its papers fall into two groups that share no co-author and no
# affiliation of the author, the smaller one sizeable both in papers and beside the larger.
# One prolific person leaves small side groups (a visit, a paper without affiliations);
# "Jie Zhou" or "Hao Li" leave several large ones. Chained common co-author names can
# join different people's groups, so the rule under-claims rather than over-claims.
SHARED_MIN_PAPERS = 5
SHARED_MIN_SHARE = 0.2


def spellings(key: str, name_counts: Iterable[tuple[str, int]]) -> list[tuple[str, int]]:
    """The spellings whose :func:`author_key` is ``key`` with their papers, the most frequent (the one
    a page shows) first; ties keep the order given."""
    found = [(name, count) for name, count in name_counts if author_key(name) == key]
    return sorted(found, key=lambda nc: -nc[1])


def merged_coauthors(name: str, name_counts: Iterable[tuple[str, int]], limit: int) -> list[tuple[str, int]]:
    """Co-authors with "Aaron Courville" and "Aaron C. Courville" as one entry, shown in its
    most frequent spelling; counts add up (a paper rarely lists both). The author is left out."""
    own = coauthor_key(name)
    groups: dict[str, list] = {}
    for other, count in name_counts:
        key = coauthor_key(other)
        if key == own or not key:
            continue
        group = groups.setdefault(key, [other, count, 0])
        if count > group[1]:
            group[0], group[1] = other, count
        group[2] += count
    merged = sorted(((shown, total) for shown, _, total in groups.values()), key=lambda kv: (-kv[1], kv[0]))
    return merged[:limit]


def looks_shared(name: str, papers: list[Paper]) -> bool:
    """Whether the papers under ``name`` split into large unconnected groups (see above).

    Papers connect when they share a co-author (by :func:`coauthor_key`) or one of the
    author's own affiliations. One person's papers nearly always connect; a name such as
    "Wei Wang" gathers groups that never meet.
    """
    own = author_key(name)
    parent = list(range(len(papers)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first_seen: dict[str, int] = {}
    for i, paper in enumerate(papers):
        for author in paper.authors:
            if author_key(author.name) == own:
                links = ["aff:" + part.casefold() for part in author.affiliation.split("; ") if part]
            else:
                links = ["co:" + coauthor_key(author.name)]
            for link in links:
                j = first_seen.setdefault(link, i)
                parent[root(i)] = root(j)
    sizes: dict[int, int] = {}
    for i in range(len(papers)):
        sizes[root(i)] = sizes.get(root(i), 0) + 1
    ranked = sorted(sizes.values(), reverse=True)
    if len(ranked) < 2:
        return False
    return ranked[1] >= SHARED_MIN_PAPERS and ranked[1] >= SHARED_MIN_SHARE * ranked[0]


def same_work(a: Paper, b: Paper) -> bool:
    """Are two records versions of one work (a COLT paper and its JMLR article, a workshop paper and
    its main-track one)? The same normalised title (:func:`~services.search.records.model.title_key`)
    and at least one author in common (by :func:`~services.search.records.name_keys.coauthor_key`):
    a title alone is not enough, short titles repeat across unrelated papers."""
    if a.paper_id == b.paper_id or not title_key(a.title) or title_key(a.title) != title_key(b.title):
        return False
    return bool({coauthor_key(n) for n in a.author_names} & {coauthor_key(n) for n in b.author_names})


def profile_body(key: str, size: int) -> dict[str, Any]:
    """The papers of every spelling of an author key, listed ones first counted by year, co-author and
    venue; the hidden ones counted apart; every spelling of the key."""
    return {"size": size, "_source": SUMMARY_FIELDS, "query": {"term": {"author_keys": key}},
            "post_filter": VISIBLE, "track_total_hits": True, "sort": sort_clauses(BROWSE_SORT),
            "aggs": {"listed": {"filter": VISIBLE, "aggs": _PROFILE_AGGS}, "hidden": {"filter": HIDDEN},
                     "spellings": {"terms": {"field": "author_names.raw", "size": 50}}}}


def shape_profile(name: str, key: str, body: dict[str, Any]) -> AuthorProfile:
    """The author's page under the most frequent spelling of ``key`` (``name`` when none is found)."""
    aggs = body["aggregations"]["listed"]
    papers = [from_source(h["_source"]) for h in body["hits"]["hits"]]
    found = spellings(key, _buckets(body["aggregations"]["spellings"]))
    shown = found[0][0] if found else name
    return AuthorProfile(
        name=shown,
        total=body["hits"]["total"]["value"],
        papers=papers,
        years=[(int(b["key"]), b["doc_count"]) for b in aggs["years"]["buckets"]],
        coauthors=merged_coauthors(shown, _buckets(aggs["coauthors"]), limit=20),
        affiliations=own_affiliations(key, papers),
        conferences=[(b["key"], b["doc_count"]) for b in aggs["conferences"]["buckets"]],
        hidden=body["aggregations"]["hidden"]["doc_count"],
        shared_name=looks_shared(shown, papers),
        spellings=found,
    )


def own_affiliations(key: str, papers: list[Paper]) -> list[tuple[str, int]]:
    """The author's own affiliations (aligned per author in the source), most frequent first."""
    counts: dict[str, int] = {}
    for paper in papers:
        for author in paper.authors:
            if author.affiliation and author_key(author.name) == key:
                for part in author.affiliation.split("; "):
                    counts[part] = counts.get(part, 0) + 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:10]


def _buckets(agg: dict[str, Any]) -> list[tuple[str, int]]:
    return [(b["key"], b["doc_count"]) for b in agg["buckets"]]
