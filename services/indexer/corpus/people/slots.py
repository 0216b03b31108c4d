"""The typed input of the decision: one :class:`Slot` per author of a paper, and the profile ids it carries.

The pass builds slots from what the index stores of each paper (authors with name, affiliation,
ORCID and source profile id; year, venue, topics, the embedding); the benchmark builds them from
the corpus. A slot is a frozen value: the decision never changes one.

Profile ids are namespaced (``"~Yang_Liu3"`` stays as OpenReview writes it; ``"orcid:…"``,
``"dblp:…"``, ``"ieee:…"``, ``"acl:…"``) because the namespaces are not equally trustworthy
(:data:`LINKS`, :data:`APART`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from services.search.records.model import Paper

from .names import name_parts

OPENREVIEW, ORCID, DBLP, IEEE, ACL, EMAIL = "~", "orcid:", "dblp:", "ieee:", "acl:", "email:"

# Two slots with one id of these namespaces are one person, whatever else: an OpenReview profile, an ORCID,
# a dblp person, an IEEE Xplore author id (IEEE splits people more than it merges them: 5,021 of its 53,985
# ids in the corpus write two spellings, "J.S. Albus" / "James S. Albus"), an e-mail address (the benchmark's
# measurement only: the index never stores one).
LINKS = (OPENREVIEW, ORCID, DBLP, IEEE, EMAIL)
# Two slots with different ids of these namespaces are two people unless the evidence is overwhelming
# (one researcher with two OpenReview profiles exists, :mod:`.cluster`). Not IEEE or e-mail (one person,
# several of each), and the ACL Anthology's only this way round: its ids are the name's slug ("/w/wei-wang/"
# is every Wei Wang it has not split off), so an equal id proves nothing, a different one (its curated
# "/c/chao-zhang-tu/" beside "/c/chao-zhang/") is a split.
APART = (OPENREVIEW, ORCID, DBLP, ACL)

_ORCID = re.compile(r"(\d{4}-\d{4}-\d{4}-\d{3}[\dX])", re.IGNORECASE)
_DBLP = re.compile(r"(?:pid/)?([0-9a-z]+/[0-9A-Za-z-]+?)(?:\.html)?$")
_IEEE = re.compile(r"^/(\d{6,})$")
_ACL = re.compile(r"^/[a-z0-9]/([a-z0-9-]+)/$")


@dataclass(frozen=True)
class Slot:
    """One author of one paper: what the decision may use of them."""

    paper_id: str
    position: int                       # the author's place on the paper, from 0
    name: str
    year: int = 0
    venue: str = ""                     # the conference key ("iclr")
    affiliation: str = ""               # the author's own ("A; B" for two), "" where the source aligns none
    profile_ids: tuple[str, ...] = ()   # namespaced, see the module's docstring
    coauthors: tuple[str, ...] = ()     # the paper's other author names
    topics: tuple[str, ...] = ()
    domain: str = ""                    # the e-mail domain, where known
    vector: int = -1                    # the paper's row in the embedding array, -1 when it has none

    @property
    def key(self) -> tuple[str, int]:
        return (self.paper_id, self.position)


def profile_ids(author_id: str = "", orcid: str = "", dblp: str = "") -> tuple[str, ...]:
    """The namespaced ids of a source's author id, ORCID and dblp fields; unknown forms are dropped."""
    out = []
    author_id = author_id.strip()
    if author_id.startswith("~") and len(author_id) > 1:
        out.append(author_id)
    elif match := _IEEE.match(author_id):
        out.append(IEEE + match.group(1))
    elif match := _ORCID.search(author_id):  # the ACL Anthology writes some ids as ORCIDs
        out.append(ORCID + match.group(1).upper())
    elif match := _ACL.match(author_id):
        out.append(ACL + match.group(1))
    elif "@" in author_id and "." in author_id.split("@")[-1]:
        out.append(EMAIL + author_id.lower())
    if match := _ORCID.search(orcid or ""):
        out.append(ORCID + match.group(1).upper())
    if dblp and (match := _DBLP.search(dblp.strip().rstrip("/"))):
        out.append(DBLP + match.group(1))
    return tuple(dict.fromkeys(out))


def credible(name: str, pid: str) -> bool:
    """Whether an OpenReview id can be this name's: its name parts share one with the name.

    Some sources' id lists are shifted against their author lists ("~Ge_Zhang5" beside "Perouz
    Taslakian", "~Yoshua_Bengio1" beside "Sai Rajeswar": most of the 68 profiles written with two
    folded names); such an id would join two people, so it is dropped. Other namespaces carry no name.
    """
    if not pid.startswith(OPENREVIEW):
        return True
    own = set(name_parts(name))
    return any(part in own for part in name_parts(re.sub(r"\d+$", "", pid[1:]).replace("_", " ")))


def slots_of(paper: Paper, vector: int = -1, dblp: tuple[str, ...] = (), domains: tuple[str, ...] = ()
             ) -> list[Slot]:
    """The slots of one paper; ``dblp`` and ``domains`` per author where the caller has them."""
    names = [a.name for a in paper.authors]
    out = []
    for i, author in enumerate(paper.authors):
        out.append(Slot(
            paper_id=paper.paper_id, position=i, name=author.name, year=paper.year, venue=paper.conference,
            affiliation=author.affiliation,
            profile_ids=tuple(p for p in profile_ids(author.author_id, author.orcid, dblp[i] if i < len(dblp) else "")
                              if credible(author.name, p)),
            coauthors=tuple(n for j, n in enumerate(names) if j != i), topics=tuple(paper.topics),
            domain=domains[i] if i < len(domains) else "", vector=vector,
        ))
    return out
