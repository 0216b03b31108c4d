"""An operator's overrides, as data: split slots off, merge persons, name a person.

Kept in a TOML file under version control and applied after every decision, so a correction
outlives every re-run (the slots it names are (paper id, position), which do not change; person
ids may, so a merge can name either):

    [[split]]                                   # these slots are one person of their own
    slots = ["iclr-2024-0123456789ab#2", "icml-2023-ba9876543210#0"]
    name = "Yang Liu"                           # optional display name

    [[merge]]                                   # the persons holding these are one
    slots = ["neurips-2019-00aa11bb22cc#1"]
    persons = ["p3f9a0c12d4e5"]

    [[name]]                                    # a person's display name
    slot = "iclr-2024-0123456789ab#2"           # or: person = "p…"
    display = "Yang Liu (Tsinghua)"

Splits apply first, then merges, then names; an override naming a slot or person the corpus no
longer has is skipped and reported (:attr:`Applied.skipped`), never fatal.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .cluster import UnionFind
from .slots import Slot

SlotKey = tuple[str, int]


def slot_ref(text: str) -> SlotKey:
    """``"paper-id#2"`` -> ``("paper-id", 2)``."""
    paper, sep, position = text.rpartition("#")
    if not sep or not paper or not position.isdigit():
        raise ValueError(f"{text!r} is not a slot (paper id#position)")
    return paper, int(position)


@dataclass(frozen=True)
class Split:
    slots: tuple[SlotKey, ...]
    name: str = ""


@dataclass(frozen=True)
class Merge:
    slots: tuple[SlotKey, ...] = ()
    persons: tuple[str, ...] = ()
    name: str = ""


@dataclass(frozen=True)
class Naming:
    display: str
    slot: SlotKey | None = None
    person: str = ""


@dataclass(frozen=True)
class Overrides:
    splits: tuple[Split, ...] = ()
    merges: tuple[Merge, ...] = ()
    names: tuple[Naming, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.splits or self.merges or self.names)


@dataclass(frozen=True)
class Applied:
    clusters: np.ndarray
    persons: list[str]
    names: dict[str, str] = field(default_factory=dict)   # person id -> display name
    skipped: tuple[str, ...] = ()


class OverridesError(ValueError):
    """The overrides file cannot be read: the pass refuses it whole (the people keep the ids they have)."""


def parse_overrides(text: str) -> Overrides:
    try:
        data = tomllib.loads(text)
        splits = tuple(Split(tuple(map(slot_ref, e["slots"])), str(e.get("name", ""))) for e in data.get("split", []))
        merges = tuple(Merge(tuple(map(slot_ref, e.get("slots", []))), tuple(e.get("persons", [])),
                             str(e.get("name", ""))) for e in data.get("merge", []))
        names = tuple(Naming(str(e["display"]), slot_ref(e["slot"]) if "slot" in e else None, str(e.get("person", "")))
                      for e in data.get("name", []))
    except KeyError as exc:
        raise OverridesError(f"an entry lacks its {exc.args[0]!r}") from None
    except (TypeError, AttributeError) as exc:
        raise OverridesError(f"an entry is not a table of the documented keys ({exc})") from None
    except ValueError as exc:  # TOML syntax, a malformed slot
        raise OverridesError(str(exc)) from None
    for merge in merges:
        if len(merge.slots) + len(merge.persons) < 2 and not merge.name:
            raise OverridesError("a merge names at least two slots or persons")
    for naming in names:
        if naming.slot is None and not naming.person:
            raise OverridesError(f"the name {naming.display!r} names neither a slot nor a person")
    return Overrides(splits, merges, names)


def load_overrides(path: Path) -> Overrides:
    """The file's overrides (none when there is no file); an unreadable one is an :class:`OverridesError`."""
    if not path.exists():
        return Overrides()
    try:
        return parse_overrides(path.read_text(encoding="utf-8"))
    except OverridesError as exc:
        raise OverridesError(f"{path.name}: {exc}") from None


def apply_overrides(slots: Sequence[Slot], clusters: np.ndarray, overrides: Overrides,
                    name_persons: Callable[[Sequence[Slot], np.ndarray], list[str]]) -> Applied:
    """The clusters and person ids after the overrides (``name_persons`` names clusters: :func:`.ids.person_ids`)."""
    index = {s.key: i for i, s in enumerate(slots)}
    skipped: list[str] = []
    clusters = np.array(clusters, np.int64, copy=True)
    display: dict[int, str] = {}

    def found(keys: Sequence[SlotKey], what: str) -> list[int]:
        hits = [index[k] for k in keys if k in index]
        skipped.extend(f"{what}: no slot {k[0]}#{k[1]}" for k in keys if k not in index)
        return hits

    for split in overrides.splits:
        hits = found(split.slots, "split")
        if hits:
            clusters[hits] = clusters.max() + 1
            if split.name:
                display[int(clusters[hits[0]])] = split.name
    persons = name_persons(slots, clusters)
    if overrides.merges:
        sets = UnionFind(int(clusters.max()) + 1)
        by_person = {p: int(c) for p, c in zip(persons, clusters)}
        for merge in overrides.merges:
            members = [int(clusters[i]) for i in found(merge.slots, "merge")]
            members += [by_person[p] for p in merge.persons if p in by_person]
            skipped.extend(f"merge: no person {p}" for p in merge.persons if p not in by_person)
            for c in members[1:]:
                sets.union(members[0], c)
            if members and merge.name:
                display[members[0]] = merge.name
        clusters = np.fromiter((sets.find(int(c)) for c in clusters), np.int64, len(clusters))
        display = {sets.find(c): name for c, name in display.items()}
        persons = name_persons(slots, clusters)
    cluster_person = {int(c): p for c, p in zip(clusters, persons)}
    names = {cluster_person[c]: name for c, name in display.items() if c in cluster_person}
    for naming in overrides.names:
        if naming.slot is not None:
            hit = found([naming.slot], "name")
            if hit:
                names[persons[hit[0]]] = naming.display
        elif naming.person in cluster_person.values():
            names[naming.person] = naming.display
        else:
            skipped.append(f"name: no person {naming.person}")
    return Applied(clusters, persons, names, tuple(skipped))
