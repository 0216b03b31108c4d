"""The BibTeX upgrade (issue 48) end to end over the ingested sample: real sample papers cited as arXiv
preprints come back as their venue entries under the user's keys (JSON and the file, parsed again with
bibtexparser), made-up titles are not found, and bad input is a 4xx through the app (not a 500)."""

from __future__ import annotations

import bibtexparser
import pytest
from elasticsearch import helpers

from services.search.answers.venue_match import accepted_statuses
from services.search.limits import MAX_BIBTEX_BODY, MAX_BIBTEX_ENTRIES
from services.search.records.model import title_key

pytestmark = pytest.mark.integration
API = "/api/v1/bibtex/upgrade"


@pytest.fixture(scope="module")
def sample_papers(es, sample_alias) -> list[dict]:
    """Twenty accepted sample papers whose titles no other sample paper has (so each has one venue entry)."""
    docs = [h["_source"] for h in helpers.scan(es, index=sample_alias, _source=["paper_id", "title", "authors.name", "year"],
                                                query={"query": {"terms": {"status": accepted_statuses()}}})]
    keys = [title_key(d["title"]) for d in docs]
    unique = [d for d, k in zip(docs, keys) if keys.count(k) == 1 and d.get("authors") and len(k.split()) >= 3]
    return sorted(unique, key=lambda d: d["paper_id"])[:20]


def _preprint(key: str, paper: dict) -> str:
    first = paper["authors"][0]["name"].split()
    title = paper["title"].lower() if len(key) % 2 else paper["title"]
    return (f"@article{{{key},\n  title={{{title}}},\n  author={{{first[-1]}, {' '.join(first[:-1])} and others}},\n"
            f"  journal={{arXiv preprint arXiv:2001.00001}},\n  year={{{int(paper['year']) - 1}}},\n  note={{mine}}\n}}\n")


def test_sample_preprints_are_upgraded_under_their_keys(client, sample_papers):
    assert len(sample_papers) == 20
    bib = "".join(_preprint(f"cite{i}", p) for i, p in enumerate(sample_papers))
    bib += "@misc{madeup, title={A Completely Invented Title About Nothing at All}, author={Nobody, A.}}\n"
    bib += "@inproceedings{venue, title={Kept}, booktitle={Some Conference}}\n@article{broken, title={open\n"
    resp = client.post(API + "?keep=note", data=bib.encode(), content_type="text/x-bibtex")
    assert resp.status_code == 200
    body = resp.get_json()
    assert body["counts"] == {"entries": 23, "upgraded": 20, "already_venue": 1, "ambiguous": 0, "not_found": 1,
                              "unreadable": 1}
    by_key = {e["key"]: e for e in body["entries"]}
    for i, paper in enumerate(sample_papers):
        assert by_key[f"cite{i}"]["paper"]["id"] == paper["paper_id"]
    parsed = bibtexparser.parse_string(body["bibtex"])
    upgraded = [e for e in parsed.entries if e.key.startswith("cite")]
    assert [e.key for e in upgraded] == [f"cite{i}" for i in range(20)]
    assert all(e.entry_type in ("inproceedings", "article") and "arXiv" not in str(e.fields_dict.get("journal", ""))
               and e["note"] == "mine" for e in upgraded)
    assert "@inproceedings{venue, title={Kept}, booktitle={Some Conference}}" in body["bibtex"]

    as_file = client.post(API, data=bib.encode(), content_type="text/plain", headers={"Accept": "text/x-bibtex"})
    assert as_file.status_code == 200 and as_file.mimetype == "text/x-bibtex"
    assert "note = {mine}" not in as_file.get_data(as_text=True)  # no keep: the venue entry as the site writes it
    assert {e.key for e in bibtexparser.parse_string(as_file.get_data(as_text=True)).entries} >= {"cite0", "madeup"}


@pytest.mark.parametrize("body, content_type, status", [
    (b"not bibtex at all", "text/plain", 400),
    (bytes(range(256)) * 10, "text/plain", 400),
    (b"@misc{a,}\n" * (MAX_BIBTEX_ENTRIES + 1), "text/x-bibtex", 413),
    (b"%" * (10 * 1024 * 1024), "text/plain", 413),  # a 10 MB single line
    (b"x" * (MAX_BIBTEX_BODY + 1), "text/plain", 413),
    (b"@misc{a, title={b}}", "application/octet-stream", 415),
    (b"@misc{a, title={{{{{{{{{{", "text/plain", 200),  # unreadable: reported, passed through
])
def test_bad_input_is_answered_with_a_4xx_naming_it(client, body, content_type, status):
    resp = client.post(API, data=body, content_type=content_type)
    assert resp.status_code == status, resp.get_data(as_text=True)[:300]
    if status >= 400:
        assert resp.get_json()["error"]["message"]
    else:
        assert resp.get_json()["entries"][0]["outcome"] == "unreadable"
