"""Pinned paper ids: a paper's id is its URL, so no refactor may ever change one.

The expected ids were computed once with the code of the time and are hard-coded here;
the records are real ones from the corpus (only the fields the id depends on), placed
in files named as in the corpus, since the file name gives conference and year.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from services.indexer.paper.normalise import identity, normalise, origin_from_path
from services.indexer.sources import open_sources

PINNED = [
    ("data/sample/iclr/iclr2013.json.gz",
     {"id": "-4IA4WgNAy4Wx", "title": "What Regularized Auto-Encoders Learn from the Data Generating Distribution"},
     "iclr-2013-78dfb1b2f9bb"),
    ("data/sample/nips/nips1987.json.gz",
     {"id": "bb31aa9271", "title": "A 'Neural' Network that Learns to Play Backgammon"},
     "neurips-1987-49ea4e1c8189"),
    ("data/sample/cvpr/cvpr2013.json.gz",
     {"id": "637da2f302", "title": "3D-Based Reasoning with Blocks, Support, and Stability"},
     "cvpr-2013-f49f79d80729"),
    ("data/sample/acl/acl2021.json.gz",
     {"id": "2021.acl-long.83", "title": "A DQN-based Approach to Finding Precise Evidences for Fact Verification"},
     "acl-2021-ff7985d2d31f"),
    ("data/sample/aaai/aaai2022.json.gz",
     {"id": "07868", "title": "A Dynamic Meta-Learning Model for Time-Sensitive Cold-Start Recommendations"},
     "aaai-2022-9aa23108a745"),
    ("data/sample/icml/icml2013.json.gz",
     {"id": "ab5136c6ee", "title": "A Generalized Kernel Approach to Structured Output Learning"},
     "icml-2013-2ddf77ce22ba"),
    # No source id: the normalised title is the key.
    ("data/sample/siggraph/siggraph2010.json.gz",
     {"title": "Volume Contact Constraints at Arbitrary Resolution"}, "siggraph-2010-e1a349c9b866"),
    ("data/sample/cvpr/cvpr2017.json.gz",
     {"title": "3D Point Cloud Registration for Localization Using a Deep Neural Network Auto-Encoder"},
     "cvpr-2017-d54c12d22f0e"),
    # Conference and year from the record, numeric id; HTML and entities in a title.
    ("/x/other.json", {"id": 4242, "title": "X", "conference": "NeurIPS 2019", "year": "2019"},
     "neurips-2019-9121f6a5b644"),
    ("/x/iclr/iclr2020.json", {"title": "  Caf&eacute; Networks:  a <i>Study</i> ", "year": 2021},
     "iclr-2021-d5cbd73be596"),
]


@pytest.mark.parametrize(("source", "record", "expected"), PINNED, ids=[p[2] for p in PINNED])
def test_paper_id_is_pinned(source, record, expected):
    origin = origin_from_path(source, 0)
    assert identity(record, origin)[0] == expected
    assert normalise(record, origin).paper_id == expected


@pytest.mark.parametrize(("source", "record", "expected"), PINNED[:8], ids=[p[2] for p in PINNED[:8]])
def test_paper_id_through_the_reader_is_pinned(source, record, expected, tmp_path):
    """The same ids when a file named like the corpus's is read through the source interface."""
    folder, name = Path(source).parts[-2:]
    path = tmp_path / folder / name
    path.parent.mkdir()
    data = json.dumps([{"title": "Another paper", "id": "other"}, record]).encode()
    path.write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
    found = {}
    for source_file in open_sources([str(path)]):
        for raw in source_file.read().records:
            if isinstance(raw.data, dict) and raw.data.get("title") == record["title"]:
                found[raw.data["title"]] = normalise(raw.data, raw.origin).paper_id
    assert found == {record["title"]: expected}
