"""The people the fake search layer knows (tests/fake_reads.py): who the authors of its papers are.

Ada Lovelace is one person; "Alan Turing" is two people (a name whose page tells them apart); Kaiming He is
undecided (no person yet: his name's page is the name's, as before people); two ids were retired, one merged
into Ada, one split between the two Alan Turings.
"""

from __future__ import annotations

from services.search.records.name_keys import block_key
from services.search.records.people import Coauthor, Counted, PaperRef, Person, Successor

ADA, TURING_1, TURING_2 = "pada000000001", "p7a0000000001", "p7a0000000002"
MERGED, SPLIT = "p3e0000000001", "p5b0000000001"


def _person(person_id: str, name: str, where: str, papers: int, years: tuple[int, int], hidden: int = 0, **more) -> Person:
    return Person(person_id=person_id, name=name, name_key=block_key(name), papers=papers, hidden=hidden,
                  first_year=years[0], last_year=years[1], affiliations=[Counted(value=where, papers=papers)],
                  **{"names": [name], **more})


PEOPLE: dict[str, Person | Successor] = {
    ADA: _person(ADA, "Ada Lovelace", "Analytical Engines", 3, (2018, 2024), 1, profiles=["~Ada_Lovelace1"],
                 orcids=["0000-0002-1825-0097"], names=["Ada Lovelace", "A. Lovelace"],
                 coauthors=[Coauthor(person_id=TURING_2, name="Alan Turing", papers=2),
                            Coauthor(person_id=TURING_1, name="Alan Turing", papers=1)],
                 venues=[Counted(value="neurips", papers=2), Counted(value="iclr", papers=1)],
                 topics=[Counted(value="graph-learning", papers=2)],
                 newest=PaperRef(paper_id="neurips-2024-p4", title="Graph Neural Networks at Scale",
                                 conference="neurips", year=2024)),
    TURING_1: _person(TURING_1, "Alan Turing", "Bletchley Park", 1, (2018, 2018), 1,
                      coauthors=[Coauthor(person_id=ADA, name="Ada Lovelace", papers=1)],
                      venues=[Counted(value="iclr", papers=1)]),
    TURING_2: _person(TURING_2, "Alan Turing", "University of Manchester", 2, (2021, 2024),
                      coauthors=[Coauthor(person_id=ADA, name="Ada Lovelace", papers=2)],
                      venues=[Counted(value="neurips", papers=2)]),
    MERGED: Successor(person_id=MERGED, change="merged", successors=[ADA]),
    SPLIT: Successor(person_id=SPLIT, change="split", successors=[TURING_2, TURING_1]),
}
