"""Author page figures computed from what Elasticsearch returns: co-authors merged by key,
the canonical spelling of a name, whether a name looks shared by several people, and
whether two records are versions of one work.

No disambiguation: these only group spellings and describe the papers found.
"""

from __future__ import annotations

from collections.abc import Iterable

from services.search.records.model import Paper, title_key
from services.search.records.name_keys import author_key, coauthor_key

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
    its main-track one)? The same normalised title (:func:`~.model.title_key`) and at least one
    author in common (by :func:`~.name_keys.coauthor_key`): a title alone is not enough, short
    titles repeat across unrelated papers."""
    if a.paper_id == b.paper_id or not title_key(a.title) or title_key(a.title) != title_key(b.title):
        return False
    return bool({coauthor_key(n) for n in a.author_names} & {coauthor_key(n) for n in b.author_names})
