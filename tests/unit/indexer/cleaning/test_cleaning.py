"""Text cleaning (services/indexer/cleaning/text.py): whitespace of every kind collapses to one space."""

from __future__ import annotations

import re
import sys

import pytest

from services.indexer.cleaning.text import clean_text


@pytest.mark.parametrize("raw, clean", [
    ("  a\tb\n\nc  ", "a b c"),
    ("a\u00a0b\u2003c\u3000d", "a b c d"),  # no-break, em and ideographic spaces
    ("a&nbsp;&amp;&#8195;b", "a & b"),  # entities unescaped before collapsing
    ("x\u200by\x00z", "xyz"),  # zero-width space and controls dropped
    ("\u2028line\u2029para\x1c", "line para"),
    # ligatures a PDF's text keeps: "Classiﬁcation" matched no query typed with "fi"
    ("Multi-Label Classiﬁcation, ﬂow, ﬀ, Eﬃcient", "Multi-Label Classification, flow, ff, Efficient"),
    ("", ""),
])
def test_clean_text(raw, clean):
    assert clean_text(raw) == clean


def test_split_collapses_exactly_what_the_regex_did():
    # clean_text uses str.split(); the earlier code used re.sub(r"\s+", " ").strip().
    spaces = "".join(chr(c) for c in range(sys.maxunicode + 1) if re.fullmatch(r"\s", chr(c)))
    assert spaces == "".join(chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace())
    text = f"a{spaces}b{spaces[::-1]}c"
    assert " ".join(text.split()) == re.sub(r"\s+", " ", text).strip()
