"""The BibTeX upgrade's routes over fake reads: the JSON report, the file, the page, and every bad input a 4xx
through the one error boundary (JSON on /api/, the page elsewhere)."""

from __future__ import annotations

import io

import bibtexparser
import pytest
from fake_reads import conforms

from services.search.limits import MAX_BIBTEX_BODY, MAX_BIBTEX_ENTRIES

API = "/api/v1/bibtex/upgrade"
BIB = """@article{gat17, title={Graph attention networks}, author={Lovelace, Ada and others},
  journal={arXiv preprint arXiv:1710.10903}, year={2017}, note={Cited twice}}
@article{broken, title = {unbalanced
@misc{unknown, title={A paper nobody wrote}, year=2020}
"""


def test_the_api_answers_a_report_that_conforms(fake_client):
    resp = fake_client.post(API + "?keep=note", data=BIB, content_type="text/x-bibtex")
    assert resp.status_code == 200
    body = resp.get_json()
    conforms(body, "BibtexUpgrade")
    assert body["counts"] == {"entries": 3, "upgraded": 1, "already_venue": 0, "ambiguous": 0, "not_found": 1,
                              "unreadable": 1}
    assert body["entries"][0]["paper"]["venue"].startswith("ICLR 2018") and "note = {Cited twice}" in body["bibtex"]
    assert body["entries"][1]["number"] == 2 and body["entries"][1]["problem"]


@pytest.mark.parametrize("how", [{"query_string": {"format": "bibtex"}}, {"headers": {"Accept": "text/x-bibtex"}}])
def test_the_api_answers_the_file_when_asked(fake_client, how):
    resp = fake_client.post(API, data=BIB, content_type="text/plain; charset=utf-8", **how)
    assert resp.status_code == 200 and resp.mimetype == "text/x-bibtex"
    assert "attachment" in resp.headers["Content-Disposition"]
    assert [e.key for e in bibtexparser.parse_string(resp.get_data(as_text=True)).entries] == ["gat17", "unknown"]


@pytest.mark.parametrize("body, content_type, status, words", [
    (b"hello world", "text/plain", 400, "no entry"),
    (b"\x89PNG\r\n\x1a\n\xff\xd8\xff", "text/plain", 400, "binary"),
    (b"@misc{a,}" * (MAX_BIBTEX_ENTRIES + 1), "text/x-bibtex", 413, "entries"),
    (b"@" + b"x" * (10 * 1024 * 1024), "text/plain", 413, f"{MAX_BIBTEX_BODY:,} bytes"),  # a 10 MB single line
    (BIB.encode(), "application/json", 415, "Content-Type"),
])
def test_bad_input_is_a_4xx_naming_the_problem(fake_client, fake_reads, body, content_type, status, words):
    resp = fake_client.post(API, data=body, content_type=content_type)
    assert resp.status_code == status and words in resp.get_json()["error"]["message"]
    assert fake_reads.called("venue_matches") == 0


def test_bad_keep_and_format_are_400s(fake_client):
    assert fake_client.post(API + "?keep=a;b", data=BIB, content_type="text/plain").status_code == 400
    assert fake_client.post(API + "?format=csv", data=BIB, content_type="text/plain").status_code == 400


def test_the_page_upgrades_a_paste_or_a_file(fake_client):
    assert 'enctype="multipart/form-data"' in fake_client.get("/tools/bibtex").get_data(as_text=True)
    pasted = fake_client.post("/tools/bibtex", data={"bibtex": BIB, "keep": "note"}).get_data(as_text=True)
    assert "Graph Attention Networks" in pasted and "ICLR 2018 · Poster" in pasted
    assert 'download="upgraded.bib"' in pasted and "data:text/x-bibtex;charset=utf-8;base64," in pasted
    uploaded = fake_client.post("/tools/bibtex", data={"file": (io.BytesIO(BIB.encode()), "refs.bib")},
                                content_type="multipart/form-data")
    assert uploaded.status_code == 200 and "Could not be read" in uploaded.get_data(as_text=True)
    download = fake_client.post("/tools/bibtex", data={"bibtex": BIB, "format": "bibtex"})
    assert download.mimetype == "text/x-bibtex" and "attachment" in download.headers["Content-Disposition"]


def test_the_page_says_what_is_wrong_beside_the_form(fake_client):
    resp = fake_client.post("/tools/bibtex", data={"bibtex": "no bibtex here"})
    assert resp.status_code == 400 and 'role="alert"' in resp.get_data(as_text=True)
    big = fake_client.post("/tools/bibtex", data={"bibtex": "x" * (2 * MAX_BIBTEX_BODY)},
                           content_type="multipart/form-data")
    assert big.status_code == 413 and "<html" in big.get_data(as_text=True)
