"""The BibTeX upgrade's page (issue 48) in a real browser at 1366 px and 390 px: a pasted .bib of sample
preprints, the counts and the table of outcomes, each change before and after, the download of the new file,
axe on the answer, no sideways scrolling. Screenshots go to ``$TMPDIR/paperlist-browser/bibtex-*.png``.
The browser fixtures are test_browser.py's (Debian's chromium through Playwright; skipped without it)."""

from __future__ import annotations

import bibtexparser
import pytest
from elasticsearch import helpers
from test_browser import _screenshot, browser_context, expect, playwright  # noqa: F401  (fixtures)
from test_browser_a11y import axe_violations, blocking, said

from services.search.answers.venue_match import accepted_statuses

pytestmark = [pytest.mark.integration, pytest.mark.browser]

SIZES = [(1366, 768), (390, 844)]
NO_SIDEWAYS = "document.documentElement.scrollWidth <= window.innerWidth"


@pytest.fixture(scope="module")
def bib(es, sample_alias) -> str:
    """Three sample papers cited as arXiv preprints, a venue entry and a made-up title."""
    docs = [h["_source"] for h in helpers.scan(es, index=sample_alias, _source=["title", "authors.name", "year"],
                                                query={"query": {"terms": {"status": accepted_statuses()}}})]
    titles = [d["title"] for d in docs]
    chosen = [d for d in sorted(docs, key=lambda d: d["title"]) if titles.count(d["title"]) == 1
              and d.get("authors") and ":" not in d["title"]][:3]
    entries = [f"@article{{mine{i},\n  title={{{d['title']}}},\n  author={{{d['authors'][0]['name'].split()[-1]}, A. "
               f"and others}},\n  journal={{arXiv preprint arXiv:2101.0000{i}}},\n  year={{{d['year']}}},\n  note={{read}}\n}}"
               for i, d in enumerate(chosen)]
    return "\n".join([*entries, "@inproceedings{kept, title={Kept}, booktitle={ICML}}",
                      "@misc{nothing, title={A Title Nobody Ever Wrote Down}}"]) + "\n"


@pytest.mark.parametrize("width, height", SIZES)
def test_a_pasted_bib_is_upgraded_shown_and_downloaded(browser_context, bib, width, height):
    page = browser_context(width=width, height=height, bypass_csp=True)  # bypass: axe is injected below
    page.goto("/tools/bibtex")
    expect(page.get_by_role("heading", name="Upgrade a .bib's preprints")).to_be_visible()
    _screenshot(page, f"bibtex-form-{width}")
    page.get_by_label("Paste your .bib").fill(bib)
    page.get_by_role("button", name="Upgrade entries").click()
    expect(page.locator(".bibtex-counts")).to_contain_text("3 upgraded")
    rows = page.locator(".bibtex-entries tbody tr")
    expect(rows).to_have_count(5)
    expect(rows.nth(3)).to_contain_text("Already a venue entry")
    expect(rows.nth(4)).to_contain_text("Not found")
    expect(page.locator(".bibtex-diff")).to_have_count(3)
    assert page.evaluate(NO_SIDEWAYS)
    _screenshot(page, f"bibtex-result-{width}", full_page=True)
    found = blocking(axe_violations(page))
    assert found == [], said({f"{width}": found})

    with page.expect_download() as download:
        page.locator("[data-bibtex-download]").click()
    assert download.value.suggested_filename == "upgraded.bib"
    text = open(download.value.path(), encoding="utf-8").read()
    entries = bibtexparser.parse_string(text).entries
    assert [e.key for e in entries] == ["mine0", "mine1", "mine2", "kept", "nothing"]
    assert all(e.entry_type in ("inproceedings", "article") and e["note"] == "read" for e in entries[:3])
