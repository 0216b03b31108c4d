"""The upgrade's outcomes over fake reads: an entry upgraded under its key with the fields kept, the others as
they came, and the JSON answer as its schema says."""

from __future__ import annotations

import bibtexparser
import pytest
from fake_reads import FakeReads

from services.search.errors import InvalidRequest
from services.web.render.bibtex_upgrade import UpgradeOptions, keep_fields, upgrade, venue_label

BIB = """% kept as it is
@article{gat17,
  title={Graph attention networks},
  author={Lovelace, Ada and others},
  journal={arXiv preprint arXiv:1710.10903},
  year={2017}, note={Cited twice}, url={https://arxiv.org/abs/1710.10903}
}
@inproceedings{venue, title={Something}, booktitle={ICML}}
@article{broken, title = {unbalanced
@misc{unknown, title={A paper nobody wrote}, year=2020}
@misc{rejected, title={A Rejected Graph Paper}, author={Lovelace, Ada}}
"""


def test_each_entry_gets_one_outcome_and_only_upgraded_ones_change():
    report = upgrade(BIB, FakeReads(), UpgradeOptions(keep=("note",)))
    assert [(e.key, e.outcome) for e in report.entries] == [
        ("gat17", "upgraded"), ("venue", "already_venue"), ("", "unreadable"), ("unknown", "not_found"),
        ("rejected", "not_found")]  # a rejected paper is no venue entry
    assert report.counts == {"upgraded": 1, "already_venue": 1, "ambiguous": 0, "not_found": 2, "unreadable": 1}
    assert report.entries[0].venue == "ICLR 2018 · Poster"
    assert report.bibtex.startswith("% kept as it is\n@inproceedings{gat17,\n")
    assert "@inproceedings{venue, title={Something}, booktitle={ICML}}" in report.bibtex
    assert "@article{broken, title = {unbalanced" in report.bibtex
    upgraded = bibtexparser.parse_string(report.bibtex).entries[0]
    assert upgraded.key == "gat17" and upgraded["note"] == "Cited twice" and "arxiv" not in upgraded["url"]
    assert upgraded["booktitle"] == "International Conference on Learning Representations"


def test_kept_fields_replace_the_venue_entrys_own():
    report = upgrade(BIB, FakeReads(), keep_fields("note, URL"))
    upgraded = bibtexparser.parse_string(report.entries[0].new).entries[0]
    assert upgraded["url"] == "https://arxiv.org/abs/1710.10903" and len(upgraded.fields_dict) == len(
        {f.key for f in upgraded.fields})


def test_a_file_without_preprints_makes_no_read():
    reads = FakeReads()
    report = upgrade("@book{b, title={T}, publisher={P}}", reads)
    assert report.counts["already_venue"] == 1 and reads.called("venue_matches") == 0


@pytest.mark.parametrize("keep", ["note;url", "a" * 50, ",".join(f"f{i}" for i in range(21))])
def test_keep_names_field_names(keep):
    with pytest.raises(InvalidRequest, match="keep"):
        keep_fields(keep)


def test_the_venue_label_is_the_paper_cards():
    paper = FakeReads().papers[0]
    assert venue_label(paper) == f"{paper.conference_name} {paper.year} · Poster"
    assert venue_label(paper.model_copy(update={"status": "accept"})) == f"{paper.conference_name} {paper.year}"
