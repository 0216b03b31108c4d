"""Name keys for blocking: which spellings may be one person, and which spellings rule it out.

A block is the set of slots that may be one person; only slots of one block are ever compared.
Its key (:func:`services.search.records.name_keys.block_key`, where the site reads it too: a name's
page lists the people of its block) is the folded name (case, accents: :func:`services.search.records.name_keys.author_key`)
with three more foldings, chosen by measurement on the 64,401 OpenReview profiles of the corpus
(68 of them are written with more than one folded name, most of those through misaligned id
lists in the sources, not real variants):

* dots are spaces and middle initials are dropped: "Tommi S. Jaakkola" / "Tommi Jaakkola"
  (17 + 13 papers of one profile), "Eric P. Xing", "Richard E. Turner" / "Richard E Turner";
* hyphens and apostrophes inside a name part are dropped: "Jian-Xun Wang" / "Jianxun Wang",
  "Shu-Tao Xia" / "Shutao Xia";
* a first name given as an initial only ("Y. Liu") keeps its own block: such slots are 1.7%
  of the corpus (mostly older IEEE records), no profile-labelled slot can measure a join, and
  "y liu" joined to every Y-name Liu would make blocks of thousands of slots. A profile id
  (IEEE's author ids link "J.S. Albus" and "James S. Albus") still joins them across blocks.

Two spellings of one block whose middle initials differ ("Yang A. Liu", "Yang B. Liu") are
kept apart: :func:`middle_conflict`.
"""

from __future__ import annotations

from services.search.records.name_keys import block_key, name_parts

__all__ = ["block_key", "middle_conflict", "middle_initials", "name_parts"]


def middle_initials(name: str) -> str:
    """The middle initials of a name, in order ("Yang A. B. Liu" -> "ab"; "" when none)."""
    parts = name_parts(name)
    return "".join(p for p in parts[1:-1] if len(p) == 1)


def middle_conflict(a: str, b: str) -> bool:
    """Whether two names both write middle initials and they differ: two people, whatever else agrees."""
    ma, mb = middle_initials(a), middle_initials(b)
    return bool(ma and mb and not (ma.startswith(mb) or mb.startswith(ma)))
