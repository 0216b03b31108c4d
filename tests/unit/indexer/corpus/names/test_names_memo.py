"""The incremental names pass (services/indexer/corpus/names/memo.py) answers what a whole pass answers.

Over the bundled sample's papers: a pass with the memory of the last one, after papers were added,
changed (title, abstract, year) and removed, gives every paper the same names, introduced names and
mentions as a pass without memory; and it reads again only the texts that changed.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import replace
from pathlib import Path

import pytest

from services.indexer.corpus.names.decide import Entry, corpus_names
from services.indexer.corpus.names.memo import NamesMemo
from services.indexer.paper.own_names import own_names

SAMPLE = Path(__file__).resolve().parents[5] / "data" / "sample"


def _entry(paper_id: str, year: int, title: str, abstract: str) -> Entry:
    return Entry(paper_id, year, title, abstract, tuple(own_names(title, abstract)))


@pytest.fixture(scope="module")
def sample() -> list[Entry]:
    out = []
    for path in sorted(SAMPLE.rglob("*.json.gz")):
        year = int("".join(ch for ch in path.name if ch.isdigit())[-4:])
        for n, record in enumerate(json.loads(gzip.decompress(path.read_bytes()))):
            title = (record.get("title") or "").strip()
            if title:
                out.append(_entry(f"{path.stem}-{n}", year, title, record.get("abstract") or ""))
    return out[::2]  # every second paper of every file: half the time, every venue and year


def _same(entries: list[Entry], memo: NamesMemo) -> None:
    fresh = corpus_names(entries)
    remembered = corpus_names(entries, memo)
    differ = [(e.paper_id, a, b) for e, a, b in zip(entries, fresh, remembered, strict=True) if a != b]
    assert not differ, differ[:5]


def test_a_pass_with_memory_names_every_paper_as_a_whole_pass(sample):
    memo = NamesMemo()
    _same(sample, memo)  # a cold memory reads everything
    assert memo.reread == len(sample)

    added = [
        _entry("new-1", 2026, "Zyxquorble Networks: Fast Lattice Quibbling",
               "We propose Zyxquorble Networks (ZQN), a lattice method. ZQN outperforms prior work."),
        _entry("new-2", 2026, "Beyond ZQN: Scaling Zyxquorble Networks",
               "We scale zyxquorble networks (ZQN) to the web and study direct preference optimization (DPO)."),
        _entry("new-3", 2026, "Text-to-Text Transfer Lattices for Quibbling Everything",
               "A text-to-text transfer lattice (TTL) for quibbling, with learning rate warmup."),
    ]
    changed = list(sample)
    changed[10] = replace(changed[10], abstract=changed[10].abstract + " We also define generative lattice "
                                                                     "quibbling (GLQ).")
    changed[20] = replace(changed[20], year=changed[20].year - 1)
    changed[30] = replace(changed[30], title="Prompt Tuning Lattices", own=("Prompt Tuning Lattices",))
    del changed[40]
    step = changed + added
    _same(step, memo)
    assert memo.reread == 3 + 3, "only the three changed and three new texts are read again"

    _same(step, memo)  # nothing changed: nothing read
    assert memo.reread == 0


def test_a_whole_pass_and_a_pass_with_memory_agree_on_a_made_up_field():
    filler = "We study learning with neural networks on several benchmarks and report results."
    papers = [_entry(f"p{i}", 2014 + i % 3, f"A Study of Learning Number {i}", filler) for i in range(30)]
    papers.append(_entry("maml", 2017, "Model-Agnostic Meta-Learning for Fast Adaptation of Deep Networks",
                         "We propose an algorithm for meta-learning that is compatible with any model."))
    later = [_entry(f"f{i}", 2018 + i % 5, f"Fast Adaptation Follow-up {i}",
                    "We build on model-agnostic meta-learning (MAML).") for i in range(30)]
    memo = NamesMemo()
    _same(papers, memo)
    _same(papers + later, memo)  # the name's mentions arrive: MAML is introduced
    assert "MAML" in corpus_names(papers + later, memo)[30].names
