"""A user's .bib read: entries in order, what each cites (TeX decoded), unreadable blocks, and refused input."""

from __future__ import annotations

import pytest

from services.search.answers.venue_match import CitedWork
from services.search.limits import MAX_BIBTEX_BYTES, MAX_BIBTEX_ENTRIES
from services.web.render.bib_reading import BibInputError, decode_text, read_bib

BIB = r"""@string{arxiv = "arXiv preprint"}
% my references
@article{vaswani2017attention,
  Title={Attention is {All} you need},
  author={Vaswani, Ashish and Shazeer, Noam and others},
  journal=arxiv # " arXiv:1706.03762", year={2017}, note = {Cited {a lot}}
}
@inproceedings{known, title = {Foo}, booktitle = {ICML}, year = 2019}
@article{broken, title = {unbalanced, year=2019
@misc{tex, title={Sch{\"o}lkopf {\`a} la {$\beta$}--VAE}, author={van der Maaten, L. and others}, year = {Jun 2008}}
@misc{tex, title={Repeated}}
@article{jmlr, title={Bar}, journal={Journal of Machine Learning Research}}
@misc{nobody, title={Baz}, author={others}}
"""


def test_entries_are_numbered_in_order_with_what_each_cites():
    entries = read_bib(BIB)
    assert [(e.number, e.key) for e in entries] == [(1, "vaswani2017attention"), (2, "known"), (3, ""), (4, "tex"),
                                                    (5, "tex"), (6, "jmlr"), (7, "nobody")]
    assert entries[0].work == CitedWork("Attention is All you need", "Vaswani", 2017)
    assert entries[0].field("note") == "Cited {a lot}" and entries[0].raw.startswith("@article{vaswani2017attention,")
    assert entries[3].work == CitedWork("Schölkopf à la $\\beta$–VAE", "van der Maaten", 2008)
    assert entries[6].work == CitedWork("Baz", "", None)


def test_venue_entries_are_not_looked_up_and_unreadable_blocks_say_why():
    entries = read_bib(BIB)
    assert entries[1].work is None and entries[5].work is None
    assert not entries[2].readable and "could not be read" in entries[2].problem
    assert "used by an earlier entry" in entries[4].problem


@pytest.mark.parametrize("text, words", [
    ("just some words", "no entry"),
    ("PDF-1.4 \x00\x01 binary", "NUL"),
    ("@misc{a,}" * (MAX_BIBTEX_ENTRIES + 1), f"{MAX_BIBTEX_ENTRIES + 1:,} entries"),
    ("@misc{a, title={" + "x" * MAX_BIBTEX_BYTES + "}}", "over the limit"),
])
def test_input_that_is_no_bib_or_too_large_is_refused_before_parsing(text, words):
    with pytest.raises(BibInputError, match=words) as refused:
        read_bib(text)
    assert refused.value.status == (413 if "limit" in words or "entries" in words else 400)


def test_bytes_are_utf8_within_the_limit():
    assert decode_text("\ufeff@misc{a, title={Ä}}".encode()) == "@misc{a, title={Ä}}"
    assert decode_text("@misc{a, title={Ä}}".encode("latin-1"), "latin-1") == "@misc{a, title={Ä}}"
    with pytest.raises(BibInputError, match="binary"):
        decode_text(b"\x89PNG\r\n\x1a\n\xff\xd8")
    with pytest.raises(BibInputError, match="bytes") as refused:  # a 10 MB single line
        decode_text(b"@" + b"x" * (10 * 1024 * 1024))
    assert refused.value.status == 413
