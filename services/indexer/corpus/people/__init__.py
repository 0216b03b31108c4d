"""People: a person for every author slot (paper, author position), decided from evidence (issue 45).

A name is not a person: "Yang Liu" is dozens of researchers, and one researcher may be written
"Tommi S. Jaakkola" and "Tommi Jaakkola". This package is the pure decision core of the corpus
pass that gives each slot a person: it reads typed slots (:mod:`.slots`), groups them into name
blocks (:mod:`.names`, :mod:`.table`), scores pairs from the evidence (:mod:`.evidence`,
:mod:`.model`), clusters each block (:mod:`.cluster`), names each cluster with a stable id
(:mod:`.ids`), applies an operator's overrides (:mod:`.curation`) and explains a decision
(:mod:`.explain`). :func:`.decide.decide` runs the whole of it.

It imports nothing of the indexer but itself (stdlib, numpy/scipy/scikit-learn, the search
records), so the pass that reads the index and writes the persons back wraps it unchanged.
"""

from .decide import Decision, decide
from .slots import Slot

__all__ = ["Decision", "Slot", "decide"]
