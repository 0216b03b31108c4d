"""The slots in columns, ordered by block, with every within-block pair laid out once.

Scoring a block compares every pair of its slots: 20M pairs in the full corpus's blocks (the
largest, "yang liu", has 811 slots). Per-block sparse products cost 2 ms a block in scipy's
overhead alone (126k blocks: four minutes), so everything here is global and vectorised:

* slots are rows ordered by block; block ``b`` is rows ``starts[b]:starts[b+1]``;
* its pairs (i < j) sit at ``pair_starts[b]`` onwards in scipy's condensed order, so one
  block's slice of any pair array is what ``scipy.cluster.hierarchy.linkage`` takes as is;
* evidence shared through keys (co-author names, affiliations) is found by sorting
  (block, key, row) entries: each run of rows sharing a key adds to its pairs (:func:`shared`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from services.search.records.name_keys import author_key

from .names import block_key, middle_initials, name_parts
from .slots import Slot


def codes_of(values: Iterable[str]) -> tuple[np.ndarray, dict[str, int]]:
    """Integer codes of values, in order of first appearance."""
    index: dict[str, int] = {}
    setdefault = index.setdefault
    return np.array([setdefault(v, len(index)) for v in values], np.int64), index


def cached(function: Callable[[str], object]) -> Callable[[str], object]:
    """``function`` remembered per distinct text for one table (names and affiliations repeat)."""
    memo: dict[str, object] = {}

    def lookup(text: str) -> object:
        found = memo.get(text, memo)
        if found is memo:
            found = memo[text] = function(text)
        return found

    return lookup


def affiliation_keys(affiliation: str) -> list[str]:
    """An affiliation's parts as keys ("MIT; Google" -> ["mit", "google"])."""
    return [author_key(part) for part in affiliation.split(";") if part.strip()]


@dataclass(frozen=True)
class Keyed:
    """Per-row key lists as flat (row, key) entries."""

    rows: np.ndarray
    keys: np.ndarray
    vocabulary: int


def _keyed(rows_keys: Sequence[Iterable[str]], index: dict[str, int] | None = None) -> Keyed:
    index = {} if index is None else index
    rows, keys = [], []
    for r, items in enumerate(rows_keys):
        for k in dict.fromkeys(index.setdefault(x, len(index)) for x in items if x):
            rows.append(r)
            keys.append(k)
    return Keyed(np.asarray(rows, np.int64), np.asarray(keys, np.int64), len(index))


@dataclass
class SlotTable:
    """The slots ordered by block; ``order[row]`` is the input index of a row, ``row_of`` the reverse."""

    slots: Sequence[Slot]
    order: np.ndarray
    row_of: np.ndarray
    keys: list[str]               # block key per block
    starts: np.ndarray            # rows of block b: starts[b]:starts[b+1]
    block: np.ndarray             # block per row
    pair_starts: np.ndarray       # pairs of block b: pair_starts[b]:pair_starts[b+1]
    left: np.ndarray              # row of each pair's first slot
    right: np.ndarray             # row of each pair's second slot
    coauthors: Keyed              # co-author names (as block keys) per row
    idf: np.ndarray               # per co-author key: log(slots / slots written with that name)
    affiliations: Keyed
    topics: np.ndarray            # bit mask of the row's topics (uint64)
    venue: np.ndarray
    year: np.ndarray
    domain: np.ndarray            # -1 when unknown
    vector: np.ndarray            # row of the embedding array, -1 when none
    has_affiliation: np.ndarray
    paper: np.ndarray             # paper code per row
    middle: np.ndarray            # code of the row's middle initials (names.middle_initials)
    middles: list[str]            # the middle initials of each code ("" for none)
    ids: list[tuple[int, str]]    # (row, profile id) for every profile id of every row that agrees
    given: np.ndarray             # per block: distinct names in the corpus with its first part
    surname: np.ndarray           # per block: distinct names in the corpus with its last part

    @property
    def blocks(self) -> int:
        return len(self.keys)

    @property
    def sizes(self) -> np.ndarray:
        return np.diff(self.starts)

    def rows(self, block: int) -> slice:
        return slice(int(self.starts[block]), int(self.starts[block + 1]))

    def pairs(self, block: int) -> slice:
        return slice(int(self.pair_starts[block]), int(self.pair_starts[block + 1]))

    def slot(self, row: int) -> Slot:
        return self.slots[int(self.order[row])]

    def pair_index(self, row_a: int, row_b: int) -> int:
        """The index of the pair of two rows of one block."""
        a, b = sorted((row_a, row_b))
        block = int(self.block[a])
        start, n = int(self.starts[block]), int(self.sizes[block])
        i, j = a - start, b - start
        return int(self.pair_starts[block]) + n * i - i * (i + 1) // 2 + (j - i - 1)


def shared(table: SlotTable, keyed: Keyed, weights: np.ndarray | None = None) -> np.ndarray:
    """Per pair: the summed weight (1 each without ``weights``) of the keys both rows hold."""
    out = np.zeros(len(table.left), np.float32)
    if not len(keyed.rows):
        return out
    blocks = table.block[keyed.rows]
    order = np.lexsort((keyed.rows, keyed.keys, blocks))
    rows, keys, blocks = keyed.rows[order], keyed.keys[order], blocks[order]
    new = np.concatenate([[True], (keys[1:] != keys[:-1]) | (blocks[1:] != blocks[:-1])])
    run_start = np.flatnonzero(new)
    run_len = np.diff(np.concatenate([run_start, [len(rows)]]))
    for m in np.unique(run_len[run_len >= 2]):
        starts = run_start[run_len == m]
        a, b = np.triu_indices(int(m), k=1)
        ra, rb = rows[starts[:, None] + a[None, :]], rows[starts[:, None] + b[None, :]]
        block = table.block[ra]
        first = table.starts[block]
        n = table.sizes[block]
        i, j = ra - first, rb - first
        index = table.pair_starts[block] + n * i - i * (i + 1) // 2 + (j - i - 1)
        w = np.ones(index.shape, np.float32) if weights is None else weights[keys[starts]][:, None].repeat(len(a), 1)
        out += np.bincount(index.ravel(), weights=w.ravel(), minlength=len(out)).astype(np.float32)
    return out


def _pairs(starts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    sizes = np.diff(starts)
    counts = sizes * (sizes - 1) // 2
    pair_starts = np.concatenate([[0], np.cumsum(counts)])
    left = np.empty(int(pair_starts[-1]), np.int32)
    right = np.empty_like(left)
    for n in np.unique(sizes[sizes >= 2]):
        blocks = np.flatnonzero(sizes == n)
        a, b = np.triu_indices(int(n), k=1)
        where = pair_starts[blocks][:, None] + np.arange(len(a))[None, :]
        left[where] = starts[blocks][:, None] + a[None, :]
        right[where] = starts[blocks][:, None] + b[None, :]
    return pair_starts, left, right


def agreeing_ids(ids: list[tuple[int, str]], slots: Sequence[Slot]) -> list[tuple[int, str]]:
    """The (row, id) entries whose name agrees with the id's other slots: the surname most of them write.

    Some sources' ORCID and dblp lists are shifted against their author lists, so one dblp id
    stands beside "Sergey Levine" 39 times and beside "Sudeep Dasari" once (5,723 ids of the corpus
    are written with two names; most are spellings, "J. Morimoto" / "Jun Morimoto"): linked as
    they are, they made one person of Sergey Levine and his students.
    """
    rows_of: dict[str, list[int]] = {}
    for row, pid in ids:
        rows_of.setdefault(pid, []).append(row)
    parts = cached(lambda name: frozenset(name_parts(name)))
    keep: set[tuple[int, str]] = set()
    for pid, rows in rows_of.items():
        names = [parts(slots[r].name) for r in rows]
        if len(set(names)) > 1:
            surnames = Counter(name_parts(slots[r].name)[-1] for r in rows if name_parts(slots[r].name))
            common = surnames.most_common(1)[0][0] if surnames else ""
            rows = [r for r, p in zip(rows, names) if common in p]
        keep.update((r, pid) for r in rows)
    return [entry for entry in ids if entry in keep]


def name_counts(keys: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Per block key: how many distinct keys share its first part, and its last part (how common the name is)."""
    firsts = Counter(k.split()[0] if k else "" for k in keys)
    lasts = Counter(k.split()[-1] if k else "" for k in keys)
    return (np.array([firsts[k.split()[0] if k else ""] for k in keys], np.int64),
            np.array([lasts[k.split()[-1] if k else ""] for k in keys], np.int64))


def build_table(slots: Sequence[Slot], key: Callable[[str], str] = block_key) -> SlotTable:
    """Order the slots by block and lay out their evidence and pairs."""
    keyed = cached(key)
    block_codes, block_index = codes_of(keyed(s.name) for s in slots)
    order = np.argsort(block_codes, kind="stable")
    row_of = np.empty_like(order)
    row_of[order] = np.arange(len(order))
    counts = np.bincount(block_codes, minlength=len(block_index))
    starts = np.concatenate([[0], np.cumsum(counts)])
    ordered = [slots[i] for i in order]
    coauthors = _keyed([[keyed(n) for n in s.coauthors] for s in ordered], dict(block_index))
    affiliations = cached(affiliation_keys)
    # A co-author name's rarity: how many slots are written with it (its block's size), as idf.
    df = np.ones(coauthors.vocabulary, np.float64)
    df[:len(counts)] = np.maximum(counts, 1)
    idf = np.log(max(len(slots), 2) / df).astype(np.float32)
    topic_codes: dict[str, int] = {}
    topics = np.fromiter((sum(1 << (topic_codes.setdefault(t, len(topic_codes)) % 64) for t in set(s.topics))
                          for s in ordered), np.uint64, len(ordered))
    domain_codes, domain_index = codes_of(s.domain for s in ordered)
    middle, middle_index = codes_of(map(cached(middle_initials), (s.name for s in ordered)))
    pair_starts, left, right = _pairs(starts)
    given, surname = name_counts(list(block_index))
    return SlotTable(
        slots=slots, order=order, row_of=row_of, keys=list(block_index), starts=starts,
        block=np.repeat(np.arange(len(counts)), counts), pair_starts=pair_starts, left=left, right=right,
        coauthors=coauthors, idf=idf, affiliations=_keyed([affiliations(s.affiliation) for s in ordered]),
        topics=topics, venue=codes_of(s.venue for s in ordered)[0],
        year=np.fromiter((s.year for s in ordered), np.int32, len(ordered)),
        domain=np.where(domain_codes == domain_index.get("", -1), -1, domain_codes),
        vector=np.fromiter((s.vector for s in ordered), np.int64, len(ordered)),
        has_affiliation=np.fromiter((bool(s.affiliation) for s in ordered), bool, len(ordered)),
        paper=codes_of(s.paper_id for s in ordered)[0], middle=middle, middles=list(middle_index),
        ids=agreeing_ids([(row, pid) for row, s in enumerate(ordered) if s.profile_ids for pid in s.profile_ids],
                         ordered),
        given=given, surname=surname,
    )
