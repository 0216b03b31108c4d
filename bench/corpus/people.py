"""The people decision measured against profile ids (issue 45): hide half, decide, score the hidden slots.

Why this way: the only truth of who wrote a slot is the OpenReview profile some sources give, and
the decision uses those very ids as anchors, so scoring the slots that carry one would score the
input. Hiding whole papers' ids makes the scored slots look like the corpus's many papers that
never had an id (CVPR, ICML before OpenReview), and hiding by paper, not by slot, keeps a hidden
slot's co-authors unlabelled too, as they are on such papers.

The OpenReview profile ids the sources give (``~Yang_Liu3``) are the truth. The corpus is read as the
pass reads it (:func:`services.indexer.corpus.people.reader.read_corpus` over ``--index``, cached under
``--cache`` by alias and index name, so a repeat run loads in seconds). Of the papers with an
OpenReview id, a random half (by paper, ``--seed``) lose every profile id they carry (OpenReview,
ORCID, IEEE, ACL); the decision runs over every slot of the corpus, and each hidden slot whose true
profile is an OpenReview id is scored:

* B³ precision, recall and F1 (per slot: its person and its profile, both restricted to the scored
  slots) and pairwise F1, over name blocks (:func:`~services.search.records.name_keys.block_key`) whose
  slots show at least two profiles, blocks with one, and all;
* beside the baselines "one person per name" (the block) and "every slot alone";
* with the decision's wall and CPU time and the process's peak memory;
* ``--spot``: the persons of a few names by hand (sizes, top affiliations).

``--fit`` learns the model on this seed's visible half first (the package's own training,
:mod:`services.indexer.corpus.people.learn`), so nothing of the hidden half leaks into it;
``--write-weights`` then writes it as the package's ``weights.toml`` (the shipped one is ``--seed 1 --fit``).

    python -m bench.corpus.people --seed 1 --fit --spot
    python -m bench.corpus.people --seed 2 --fit
"""

from __future__ import annotations

import argparse
import gc
import pickle
import random
import resource
import sys
import time
from collections import Counter, defaultdict
from dataclasses import replace
from pathlib import Path

import numpy as np

from bench.harness import bench_settings
from services.indexer.corpus.people.reader import CorpusRead, read_corpus
from services.indexer.corpus.people.slots import OPENREVIEW, Slot
from services.search.engine.client import make_client
from services.search.records.name_keys import block_key

CACHE = Path("/work/people-cache")
CACHE_VERSION = 1
SPOT = ("Yang Liu", "Wei Wang", "Bo Li", "Yoshua Bengio", "Sergey Levine")


def load(alias: str, cache: Path) -> CorpusRead:
    """The alias read as the pass reads it, from the cache when this index was read before."""
    es = make_client(bench_settings(), request_timeout=120)
    index = sorted(es.indices.get_alias(name=alias))[0] if es.indices.exists_alias(name=alias) else alias
    path = cache / f"read-v{CACHE_VERSION}-{alias}-{index}.pkl"
    if path.exists():
        gc.disable()  # a million small objects: the collector would walk them again and again (4x slower)
        try:
            with path.open("rb") as fh:
                read = pickle.load(fh)
        finally:
            gc.enable()
        vectors = path.with_suffix(".npy")
        return replace(read, vectors=np.load(vectors) if vectors.exists() else None)
    started = time.monotonic()
    read = read_corpus(es, alias)
    print(f"read {alias} ({index}): {len(read.facts)} papers in {time.monotonic() - started:.0f}s", file=sys.stderr)
    cache.mkdir(parents=True, exist_ok=True)
    if read.vectors is not None:
        np.save(path.with_suffix(".npy"), read.vectors)
    with path.open("wb") as fh:
        pickle.dump(replace(read, vectors=None), fh, protocol=pickle.HIGHEST_PROTOCOL)
    return read


def hidden_papers(read: CorpusRead, seed: int) -> set[str]:
    """A random half (by ``seed``) of the papers whose slots carry an OpenReview id."""
    bearing = sorted({s.paper_id for s in read.slots if any(p.startswith(OPENREVIEW) for p in s.profile_ids)})
    return set(random.Random(seed).sample(bearing, len(bearing) // 2))


def hide(slots: list[Slot], hidden: set[str]) -> tuple[list[Slot], np.ndarray, np.ndarray]:
    """The slots with the hidden papers' ids removed; per slot its true profile's code (-1 when it has none)
    and whether its paper was hidden."""
    codes: dict[str, int] = {}
    truth = np.full(len(slots), -1, np.int64)
    was_hidden = np.zeros(len(slots), bool)
    out = []
    for i, s in enumerate(slots):
        true = next((p for p in s.profile_ids if p.startswith(OPENREVIEW)), "")
        if true:
            truth[i] = codes.setdefault(true, len(codes))
        if s.paper_id in hidden:
            was_hidden[i] = True
            s = replace(s, profile_ids=())
        out.append(s)
    return out, truth, was_hidden


def b_cubed(pred: np.ndarray, true: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per slot: B³ precision and recall (its person's share of its profile's slots and the reverse)."""
    _, p = np.unique(pred, return_inverse=True)
    _, t = np.unique(true, return_inverse=True)
    _, both = np.unique(p.astype(np.int64) * (t.max() + 1) + t, return_inverse=True)
    inter = np.bincount(both)[both].astype(np.float64)
    return inter / np.bincount(p)[p], inter / np.bincount(t)[t]


def pairwise(pred: np.ndarray, true: np.ndarray, group: np.ndarray) -> tuple[float, float, float]:
    """Pairwise precision, recall and F1 over the pairs of slots of which one is in ``group``."""
    _, p = np.unique(pred, return_inverse=True)
    _, t = np.unique(true, return_inverse=True)
    _, both = np.unique(p.astype(np.int64) * (t.max() + 1) + t, return_inverse=True)
    tp = float((np.bincount(both)[both] - 1)[group].sum())
    pp = float((np.bincount(p)[p] - 1)[group].sum())
    tt = float((np.bincount(t)[t] - 1)[group].sum())
    precision, recall = (tp / pp if pp else 1.0), (tp / tt if tt else 1.0)
    return precision, recall, (2 * precision * recall / (precision + recall) if precision + recall else 0.0)


def scores(pred: np.ndarray, true: np.ndarray, scored: np.ndarray, groups: dict[str, np.ndarray]) -> dict:
    """B³ and pairwise figures of the scored slots, per group; clusters restricted to the scored slots."""
    pred, true = pred[scored], true[scored]
    precision, recall = b_cubed(pred, true)
    out = {}
    for name, group in groups.items():
        g = group[scored]
        bp, br = float(precision[g].mean()), float(recall[g].mean())
        out[name] = {"slots": int(g.sum()), "b3_p": bp, "b3_r": br, "b3_f1": 2 * bp * br / (bp + br),
                     "pair_f1": pairwise(pred, true, g)[2]}
    return out


def groups_of(slots: list[Slot], truth: np.ndarray) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """The name groups (blocks with >= 2 profiles, with one, all) and each slot's block code."""
    keys: dict[str, int] = {}
    block = np.fromiter((keys.setdefault(block_key(s.name), len(keys)) for s in slots), np.int64, len(slots))
    labelled = truth >= 0
    pairs = np.unique(np.stack([block[labelled], truth[labelled]]), axis=1)
    profiles = np.bincount(pairs[0], minlength=len(keys))[block]
    return {"multi": profiles >= 2, "single": profiles == 1, "all": np.ones(len(slots), bool)}, block


def likely_duplicates(slots: list[Slot], truth: np.ndarray, block: np.ndarray, shared: int = 2,
                      largest: int = 60) -> tuple[np.ndarray, int]:
    """The truth with the profiles that look like one person merged: two profiles of one name whose slots (all of
    them: this is the measurement's side, never the decision's) share at least ``shared`` co-author names. Names
    with more than ``largest`` profiles are left as they are (a lab of many "Wei Wang"s shares co-authors too)."""
    coauthors: dict[int, dict[int, set[str]]] = defaultdict(lambda: defaultdict(set))
    for i in np.flatnonzero(truth >= 0):
        coauthors[int(block[i])][int(truth[i])].update(block_key(n) for n in slots[i].coauthors)
    parent = np.arange(int(truth.max()) + 1)

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = int(parent[x])
        return x

    pairs = 0
    for profiles in coauthors.values():
        if 2 <= len(profiles) <= largest:
            items = list(profiles.items())
            for k, (p, a) in enumerate(items):
                for q, c in items[k + 1:]:
                    if len(a & c) >= shared:
                        pairs += 1
                        parent[find(p)] = find(q)
    merged = np.array([find(int(t)) for t in range(len(parent))])
    return np.where(truth >= 0, merged[np.maximum(truth, 0)], -1), pairs


def spot_check(name: str, slots: list[Slot], clusters: np.ndarray, top: int = 6) -> str:
    """A name's persons: how many, their sizes, the largest ones' top affiliations."""
    key = block_key(name)
    members: dict[int, list[int]] = defaultdict(list)
    for i, s in enumerate(slots):
        if block_key(s.name) == key:
            members[int(clusters[i])].append(i)
    sizes = sorted(members.values(), key=len, reverse=True)
    lines = [f"{name}: {sum(map(len, sizes))} slots, {len(sizes)} persons; largest {[len(m) for m in sizes[:15]]}"]
    for m in sizes[:top]:
        affs = Counter(part.strip() for i in m for part in slots[i].affiliation.split(";") if part.strip())
        lines.append(f"  {len(m):4d}  {'; '.join(f'{a} ({c})' for a, c in affs.most_common(3)) or '-'}")
    return "\n".join(lines)


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def report(name: str, figures: dict) -> None:
    for group, f in figures.items():
        print(f"{name:18s} {group:7s} {f['slots']:7d} {f['b3_p']:7.4f} {f['b3_r']:7.4f} {f['b3_f1']:7.4f} "
              f"{f['pair_f1']:8.4f}")


def main(argv: list[str] | None = None) -> None:
    from services.indexer.corpus.people import decide
    from services.indexer.corpus.people.learn import fit, write_weights
    from services.indexer.corpus.people.model import default_model

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--index", default="full", help="the alias (or index) to read, as the pass reads it")
    ap.add_argument("--cache", type=Path, default=CACHE, help="where the read is kept between runs")
    ap.add_argument("--seed", type=int, default=1, help="which half of the id-bearing papers is hidden")
    ap.add_argument("--fit", action="store_true", help="learn the model on this seed's visible half first")
    ap.add_argument("--write-weights", action="store_true", help="with --fit: write it as the package's weights")
    ap.add_argument("--spot", action="store_true", help="print the persons of a few names")
    args = ap.parse_args(argv)

    started = time.monotonic()
    read = load(args.index, args.cache)
    hidden = hidden_papers(read, args.seed)
    slots, truth, was_hidden = hide(read.slots, hidden)
    print(f"corpus: {len(read.facts)} papers, {len(slots)} slots; {len(hidden)} papers hidden (seed {args.seed}); "
          f"{time.monotonic() - started:.0f}s to load")
    model = default_model()
    if args.fit:
        fitting = time.monotonic()
        model = fit(slots, read.vectors, seed=args.seed)
        print(f"fitted on the visible half in {time.monotonic() - fitting:.0f}s")
        if args.write_weights:
            print(f"wrote {write_weights(model, args.seed)}")
    before = peak_rss_mb()
    wall, cpu = time.monotonic(), time.process_time()
    decision = decide(slots, read.vectors, model)
    wall, cpu = time.monotonic() - wall, time.process_time() - cpu
    print(f"decision: {wall:.1f}s wall, {cpu:.1f}s CPU, {len(set(decision.persons))} persons; "
          f"peak RSS {peak_rss_mb():.0f} MB ({before:.0f} MB before deciding)")
    groups, block = groups_of(slots, truth)
    scored = was_hidden & (truth >= 0)
    print(f"scored: {int(scored.sum())} hidden slots with an OpenReview profile "
          f"({int((scored & groups['multi']).sum())} in blocks with >= 2 profiles)")
    print(f"{'run':18s} {'group':7s} {'slots':>7s} {'B3 P':>7s} {'B3 R':>7s} {'B3 F1':>7s} {'pair F1':>8s}")
    runs = {"decision": decision.clusters, "one per name": block, "every slot alone": np.arange(len(slots))}
    for name, pred in runs.items():
        report(name, scores(np.asarray(pred), truth, scored, groups))
    merged, pairs = likely_duplicates(slots, truth, block)
    print(f"against the truth with {pairs} likely-duplicate profile pairs merged (one name, >= 2 shared co-authors):")
    report("decision", scores(np.asarray(decision.clusters), merged, scored, groups))
    report("the truth itself", scores(truth, merged, scored, groups))
    print("the merged truth scored against the truth (the precision a decision that merges them can reach):")
    report("merged truth", scores(merged, truth, scored, groups))
    if args.spot:
        for name in SPOT:
            print(spot_check(name, slots, decision.clusters))


if __name__ == "__main__":
    main()
