"""Exports with hostile data: BibTeX fields that cannot break out, CSV cells that are not formulas."""

from __future__ import annotations

import csv
import io
import re
from urllib.parse import unquote

import bibtexparser
import pytest

from services.search.records.model import Author, Links, Paper
from services.settings import load_settings
from services.web.app import create_app
from services.web.render import bibtex
from services.web.render.exports import EXPORT_FORMATS

HOSTILE_TITLES = [
    "Plain title",
    "Escape}, author = {Mallory},\n note = {pwned",
    "$x}$ math that closes the field $}}}$",
    "Unbalanced {{{ braces \\",
    "\\input{/etc/passwd} \\immediate\\write18{rm -rf /}",
    "100% & #1 of a_b with $\\ell_1$ ~ 2^n",
    "}\n@misc{evil, title={owned}}\n@comment{",
    "Veličković's — “Unicode” 日本語",
]
HOSTILE_URLS = ["https://x.org/a}b{c\\d", "https://x.org/}, note={owned", "https://x.org/ü path?q=1&r=%7D#f"]
HOSTILE_DOIS = ["10.1000/a}b", "https://doi.org/10.1000/x_y{z}%", "10.1/}\n@misc{evil,"]

# The inverse of the escaping, to check that the values round-trip.
_UNESCAPE = {r"\textbraceleft{}": "{", r"\textbraceright{}": "}", r"\textbackslash{}": "\\",
             r"\textasciitilde{}": "~", r"\textasciicircum{}": "^", r"\&": "&", r"\%": "%", r"\#": "#",
             r"\_": "_", r"\$": "$"}


def unescape(text: str) -> str:
    return re.sub("|".join(re.escape(k) for k in _UNESCAPE), lambda m: _UNESCAPE[m.group(0)], text)


def untex(text: str) -> str:
    """A title field as written: escapes undone, the braces protecting capitals and math dropped."""
    parts = re.split("(" + "|".join(re.escape(k) for k in _UNESCAPE) + ")", text)
    return "".join(_UNESCAPE.get(part, part.replace("{", "").replace("}", "")) for part in parts)


def paper(title: str, url: str = "", doi: str = "", authors=("Petar Veličković", "Bob } Evil")) -> Paper:
    return Paper(paper_id="iclr-2018-abc", conference="iclr", conference_name="ICLR", year=2018, title=title,
                 authors=[Author(name=n) for n in authors], links=Links(site=url, doi=doi),
                 bibtex="@misc{raw, title={raw source entry}}", track="=HYPERLINK(\"http://evil\")")


@pytest.mark.parametrize("title", HOSTILE_TITLES)
@pytest.mark.parametrize("url, doi", list(zip(HOSTILE_URLS, HOSTILE_DOIS, strict=True)))
def test_bibtex_fields_round_trip_through_a_parser(title, url, doi):
    entry = bibtex.entry(paper(title, url, doi))
    library = bibtexparser.parse_string(entry)
    assert not library.failed_blocks and len(library.blocks) == 1
    (parsed,) = library.entries
    assert parsed.entry_type == "inproceedings" and re.fullmatch("velickovic2018[a-z0-9]*", parsed.key)
    fields = {f.key: f.value for f in parsed.fields}
    assert set(fields) == {"title", "author", "booktitle", "year", "url", "doi"}
    assert untex(fields["title"]) == " ".join(title.split())
    assert [unescape(a) for a in fields["author"].split(" and ")] == ["Petar Veličković", "Bob } Evil"]
    assert unquote(fields["url"]) == unquote(" ".join(url.split()))
    assert unquote(fields["doi"]) == unquote(" ".join(doi.removeprefix("https://doi.org/").split()))
    assert fields["year"] == "2018"
    assert "raw source entry" not in entry
    # Classic BibTeX counts every brace, escaped or not: only the structural ones may appear.
    assert entry.count("{") == entry.count("}")
    assert all(ch.isascii() for ch in fields["url"] + fields["doi"])


def test_cite_keys_are_ascii():
    assert bibtex.cite_key(paper("Graph Attention Networks")) == "velickovic2018graph"


@pytest.fixture(scope="module")
def app():
    return create_app(load_settings(PAPERLIST_PUBLIC_URL="https://papers.example.org", PAPERLIST_INDEX="test-none"))


FORMULAS = ["=1+1", "+1", "-1+2", "@SUM(A1)", "\tx", "\r=x", "  =cmd|' /C calc'!A0", "\n@x"]


@pytest.mark.parametrize("formula", FORMULAS)
def test_every_csv_cell_is_defused(app, formula):
    hostile = Paper(paper_id="p-1", conference="iclr", conference_name=formula, year=2018, title=formula,
                    authors=[Author(name=formula, affiliation=formula)], keywords=[formula], topics=[formula],
                    track=formula, status="oral", links=Links(pdf=formula, site=formula, code=formula))
    with app.test_request_context("/", headers={"Host": "evil.example"}):
        text = EXPORT_FORMATS["csv"][2]([hostile])
    header, row = list(csv.reader(io.StringIO(text)))
    cells = dict(zip(header, row, strict=True))
    for name in ("title", "authors", "conference", "track", "topics", "keywords", "pdf", "site",
                 "code"):
        assert cells[name] == "'" + formula, name
    assert cells["url"] == "https://papers.example.org/papers/p-1"
    assert all(cell.lstrip()[:1] not in ("=", "+", "-", "@") for cell in row)


def test_plain_csv_cells_are_unchanged(app):
    plain = Paper(paper_id="p-2", conference="iclr", conference_name="ICLR", year=2018, title="A title",
                  track="main", citations=3)
    with app.test_request_context("/"):
        header, row = list(csv.reader(io.StringIO(EXPORT_FORMATS["csv"][2]([plain]))))
    cells = dict(zip(header, row, strict=True))
    assert (cells["title"], cells["track"], cells["year"], cells["citations"]) == ("A title", "main", "2018", "3")
