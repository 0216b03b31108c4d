"""Paper <-> stored document, and BibTeX entries (the source's own or generated)."""

from __future__ import annotations

import json
import re

import pytest

from services.indexer.paper.normalise import Origin, normalise
from services.search.records.documents import SUMMARY_FIELDS, from_source, to_document
from services.search.records.model import Author, Links, Paper, title_key
from services.web.render import bibtex

ORIGIN = Origin("data/iclr/iclr2024.json.gz", 3, "iclr", 2024, format="paperlists")


def make(**changes) -> Paper:
    fields = dict(
        paper_id="iclr-2024-0123456789ab", conference="iclr", conference_name="ICLR", year=2024,
        title="Graph Neural Networks for Molecules",
        authors=[Author(name="Ada Lovelace", affiliation="MIT; Harvard", orcid="0000-0001", author_id="~Ada1"),
                 Author(name="Alan Turing", affiliation="Harvard"),
                 Author(name="Grace Hopper")],
        abstract="We study graphs.", tldr="Graphs.", keywords=["GNN", "chemistry"], primary_area="graphs",
        topics=["graph-learning", "ai-for-science-health"], track="Journal Track", status="oral",
        status_raw="Oral", award=True,
        links=Links(pdf="https://openreview.net/pdf?id=X", site="https://openreview.net/forum?id=X",
                    openreview="https://openreview.net/forum?id=X", code="https://github.com/a/b",
                    doi="https://doi.org/10.1000/xyz"),
        bibtex="", citations=42, source="data/iclr/iclr2024.json.gz", position=3, content_hash="abc",
    )
    fields.update(changes)
    return Paper(**fields)


# --- documents --------------------------------------------------------------------------------

class TestDocuments:
    @pytest.mark.parametrize("paper", [
        make(),
        make(authors=[], links=Links(), citations=None, topics=[], keywords=[], award=False),
        normalise({"id": "x", "title": "$\\ell_1$ &amp; <i>Sparse</i> Codes", "author": "A;B;A;B", "aff": "X",
                   "github": "github.com/a/b", "gs_citation": -1, "status": "Poster"}, ORIGIN),
    ], ids=["full", "sparse", "normalised"])
    def test_round_trip_preserves_the_paper(self, paper):
        doc = to_document(paper, run="run-1", indexed_at="2024-05-06T07:08:09Z")
        assert from_source(doc) == paper
        assert from_source(json.loads(json.dumps(doc))) == paper  # through JSON, as from Elasticsearch

    def test_derived_fields(self):
        doc = to_document(make(), run="run-7")
        assert doc["title_key"] == title_key("Graph Neural Networks for Molecules") == \
            "graph neural networks for molecules"
        assert doc["author_names"] == ["Ada Lovelace", "Alan Turing", "Grace Hopper"]
        assert doc["affiliations"] == ["MIT", "Harvard"]
        assert doc["has_code"] is True
        assert doc["topic_labels"] == ["Graph Learning", "AI for Science & Health"]
        assert doc["ingest_run"] == "run-7"
        assert "indexed_at" not in doc
        # One suggestion per author, typed from any word of the name.
        assert doc["author_suggest"][0] == {"input": ["Ada Lovelace", "Lovelace Ada"]}
        assert len(doc["author_suggest"]) == 3

    def test_name_rotations_lead_back_to_the_name(self):
        from services.search.records.documents import name_of_rotation, name_rotations
        assert name_rotations("Aaron C. Courville") == ["Aaron C. Courville", "C. Courville Aaron",
                                                        "Courville Aaron C."]
        assert name_of_rotation("Bengio Yoshua", ["Samy Bengio", "Yoshua Bengio"]) == "Yoshua Bengio"

    def test_indexed_at(self):
        assert to_document(make(), indexed_at="2024-01-01T00:00:00Z")["indexed_at"] == "2024-01-01T00:00:00Z"

    def test_affiliations_split_on_semicolon_distinct_in_order(self):
        p = make(authors=[Author(name="A", affiliation="ETH; MIT"), Author(name="B", affiliation="MIT;  EPFL "),
                          Author(name="C", affiliation="")])
        assert to_document(p)["affiliations"] == ["ETH", "MIT", "EPFL"]

    def test_has_code_false_without_code_link(self):
        assert to_document(make(links=Links(pdf="https://x.org/a.pdf")))["has_code"] is False

    def test_completion_inputs_within_max_lengths(self):
        p = make(title="T" * 1000, authors=[Author(name="N" * 300)], citations=10**9, year=2100)
        doc = to_document(p)
        assert doc["title_suggest"]["input"] == ["T" * 100]
        assert doc["author_suggest"] == [{"input": ["N" * 60]}]
        weight = doc["title_suggest"]["weight"]
        assert isinstance(weight, int) and 0 <= weight < 2**31

    @pytest.mark.parametrize("citations, year, weight", [(None, 1950, 0), (0, 1980, 0), (None, 2024, 44),
                                                         (100, 2020, 50), (10**9, 1990, 10_010)])
    def test_suggest_weight_non_negative_int(self, citations, year, weight):
        assert to_document(make(citations=citations, year=year))["title_suggest"]["weight"] == weight

    def test_no_author_suggest_key_without_authors(self):
        doc = to_document(make(authors=[]))
        assert "author_suggest" not in doc
        assert doc["author_names"] == [] and doc["affiliations"] == []

    def test_document_is_json_serialisable(self):
        doc = to_document(make())
        assert json.loads(json.dumps(doc)) == doc

    def test_summary_fields_are_document_fields(self):
        assert set(SUMMARY_FIELDS) <= set(to_document(make()))

    def test_partial_source_gives_defaults(self):
        doc = to_document(make())
        p = from_source({k: doc[k] for k in SUMMARY_FIELDS})
        assert p.title == make().title and p.authors == make().authors and p.links == make().links
        assert (p.tldr, p.bibtex, p.source, p.position, p.content_hash) == ("", "", "", 0, "")

    def test_from_source_ignores_unknown_and_derived_fields(self):
        doc = {**to_document(make()), "some_future_field": 1}
        p = from_source(doc)
        assert not hasattr(p, "some_future_field")
        assert "title_key" not in p.model_dump()

    def test_empty_source(self):
        p = from_source({})
        assert (p.paper_id, p.conference, p.conference_name, p.year, p.title) == ("", "", "", 0, "")

    def test_a_document_an_older_schema_wrote_is_read_as_stored(self):
        # A reindex reads documents of the index it replaces: one that no longer validates is still a paper.
        doc = {**to_document(make()), "citations": "many", "reviews": [{"criterion": "rating"}]}
        p = from_source(doc)
        assert p.title == make().title and p.authors == make().authors
        assert p.citations == "many" and p.reviews[0].criterion == "rating"

    def test_a_stored_document_reads_as_the_paper_it_was_made_from(self):
        paper = make(reviews=[{"criterion": "rating", "mean": 6.5, "scores": [6, 7]}], citations=12)
        assert from_source(to_document(paper)) == paper


# --- bibtex -----------------------------------------------------------------------------------

def braces_balanced(text: str) -> bool:
    """Unescaped braces balance and never go negative."""
    depth = 0
    for match in re.finditer(r"\\.|[{}]", text):
        token = match.group(0)
        if token == "{":
            depth += 1
        elif token == "}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


def field(entry: str, name: str) -> str:
    match = re.search(rf"^  {name} = \{{(.*)\}},?$", entry, re.MULTILINE)
    assert match, (name, entry)
    return match.group(1)


FORBIDDEN_IN_KEY = set(" \t\n,{}()\"'#%=\\~")

SOURCE_ENTRY = ("@article{\n  anonymous2018think,\n  title={THINK VISUALLY},\n  author={Anonymous},\n"
                "  journal={International Conference on Learning Representations},\n  year={2018}\n}")


class TestBibtex:
    @pytest.mark.parametrize("source", ["", "   ", "title={x}", SOURCE_ENTRY,
                                        "@misc{evil, note={\\input{/etc/passwd}}}"])
    def test_an_entry_is_always_generated_never_the_sources_own(self, source):
        entry = bibtex.entry(make(bibtex=source))
        assert entry == bibtex.generate(make(bibtex=source))
        assert entry.startswith("@inproceedings{lovelace2024graph,\n")
        assert entry.endswith("\n}")
        assert "evil" not in entry and "anonymous2018think" not in entry
        assert braces_balanced(entry)

    def test_generated_fields(self):
        entry = bibtex.generate(make())
        assert field(entry, "title") == "Graph Neural Networks for Molecules"
        assert field(entry, "author") == "Ada Lovelace and Alan Turing and Grace Hopper"
        assert field(entry, "booktitle") == "International Conference on Learning Representations"
        assert field(entry, "year") == "2024"
        assert field(entry, "url") == "https://openreview.net/forum?id=X"
        assert field(entry, "doi") == "10.1000/xyz"

    def test_url_falls_back_to_pdf_then_openreview_and_may_be_absent(self):
        assert field(bibtex.generate(make(links=Links(pdf="https://x.org/a.pdf"))), "url") == "https://x.org/a.pdf"
        entry = bibtex.generate(make(links=Links()))
        assert "url =" not in entry and "doi =" not in entry
        assert braces_balanced(entry)

    def test_no_authors(self):
        p = make(authors=[])
        assert field(bibtex.generate(p), "author") == "Anonymous"
        assert bibtex.cite_key(p) == "anon2024graph"

    @pytest.mark.parametrize("title, expected", [
        ("50% of R&D_costs #1", r"50\% of {R\&D\_costs} \#1"),
        ("Sets {a, b} and \\emph", r"Sets \textbraceleft{}a, b\textbraceright{} and \textbackslash{}emph"),
        ("$\\ell_1$-regression ~ 10^2", r"{$\ell_1$}-regression \textasciitilde{} 10\textasciicircum{}2"),
        ("$\\beta$-DPO: Dynamic $\\beta$", r"{$\beta$}{-DPO:} Dynamic {$\beta$}"),
        ("No $$$ here", r"No \$\$\$ here"),
        ("$\\input{/etc/passwd}$", r"\$\textbackslash{}input\textbraceleft{}/etc/passwd\textbraceright{}\$"),
        ("$x % y$ and $\\def\\a{b}$", r"\$x \% y\$ and \$\textbackslash{}def\textbackslash{}a\textbraceleft{}b\textbraceright{}\$"),
        ("A \\textit{Study} of R\\&D in Schr\\\"odinger", r"A \textit{Study} of {R\&D} in Schrödinger"),
        ("BERT: Pre-training for ImageNet and 3D", r"{BERT:} Pre-training for {ImageNet} and {3D}"),
        ("Plain  Title\n", "Plain Title"),
    ])
    def test_title_keeps_safe_tex_and_protects_capitals(self, title, expected):
        entry = bibtex.generate(make(title=title))
        assert field(entry, "title") == expected
        assert braces_balanced(entry)

    @pytest.mark.parametrize("name, escaped", [("Ben & Jerry", r"Ben \& Jerry"), ("A_B", r"A\_B"),
                                               ("Dr {Who}", r"Dr \textbraceleft{}Who\textbraceright{}"),
                                               ("Tom and Jerry", "{Tom and Jerry}")])
    def test_author_escaping(self, name, escaped):
        entry = bibtex.generate(make(authors=[Author(name=name)]))
        assert field(entry, "author") == escaped
        assert braces_balanced(entry)

    def test_booktitle_of_unknown_conference(self):
        entry = bibtex.generate(make(conference="foo-bar-baz", conference_name="Foo Bar Baz"))
        assert field(entry, "booktitle") == "Foo Bar Baz"

    @pytest.mark.parametrize("authors, title, year, key", [
        (["Ada Lovelace"], "Graph Neural Networks", 2024, "lovelace2024graph"),
        (["José Müller"], "Über Netze für Bilder", 2020, "muller2020uber"),
        (["Søren Kierkegaard"], "A Fast Algorithm", 2019, "kierkegaard2019fast"),
        (["王小明"], "深度学习 Networks", 2021, "anon2021networks"),
        (["Ada Lovelace"], "On a Go", 2022, "lovelace2022"),
        (["Yann LeCun", "Other"], "$\\ell_1$-Regression", 2018, "lecun2018regression"),
        (["Petar Veličković"], "Graph Attention Networks", 2018, "velickovic2018graph"),
    ])
    def test_cite_key(self, authors, title, year, key):
        p = make(authors=[Author(name=n) for n in authors], title=title, year=year)
        assert bibtex.cite_key(p) == key
        assert key.isascii()
        assert bibtex.generate(p).startswith(f"@inproceedings{{{key},\n")

    @pytest.mark.parametrize("name", ["Cara O'Brien", "Jakub \\Lącki", "Eugene d'Eon"])
    def test_cite_key_has_no_bibtex_special_characters(self, name):
        key = bibtex.cite_key(make(authors=[Author(name=name)]))
        assert key.isascii()
        assert not set(key) & FORBIDDEN_IN_KEY, key
