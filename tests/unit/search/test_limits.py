"""The query's length limits agree from the search box to gunicorn: whatever the box sends reaches the
app, which answers it (or refuses it with its own page); only a longer URL made by hand meets the front's
limit, and even then the site's page answers (tests/integration/test_front.py)."""

from __future__ import annotations

import re

from services.search.limits import MAX_BIBTEX_BODY, MAX_BIBTEX_BYTES, MAX_QUERY, MAX_REQUEST_LINE
from services.settings import PROJECT_ROOT

WORST_BYTES_PER_CHARACTER = 9  # a 3-byte UTF-8 character, each byte percent-encoded (%E6%B3%A8)
OTHER_PARAMETERS = 3_000  # bytes of the method, path, version and a page's other parameters (filters, sort, page)


def _setting(path: str, pattern: str) -> int:
    match = re.search(pattern, (PROJECT_ROOT / path).read_text(), re.MULTILINE)
    assert match, f"{pattern} not in {path}"
    return int(match.group(1))


def test_the_box_query_fits_the_front_which_fits_gunicorn():
    nginx = _setting("deploy/nginx/paperlist.conf.template", r"^large_client_header_buffers \d+ (\d+);")
    gunicorn = _setting("deploy/gunicorn.conf.py", r"^limit_request_line = (\d+)")
    assert nginx == MAX_REQUEST_LINE
    assert MAX_QUERY * WORST_BYTES_PER_CHARACTER + OTHER_PARAMETERS <= MAX_REQUEST_LINE < gunicorn


def test_the_search_box_takes_what_a_search_reads():
    macros = (PROJECT_ROOT / "services/web/templates/_macros.html").read_text()
    assert re.search(r'<input id="q" name="q" type="search"[^>]*maxlength="\{\{ max_query \}\}"', macros)


def test_the_front_reads_a_bib_as_large_as_the_app_does():
    """The BibTeX upgrade's location takes the app's body limit (issue 48): no smaller (nginx would refuse a .bib
    the app reads), no larger (the app refuses it itself, with the same 413)."""
    nginx = _setting("deploy/nginx/paperlist.conf.template", r"^ +client_max_body_size (\d+)k;")
    assert nginx * 1024 == MAX_BIBTEX_BODY > MAX_BIBTEX_BYTES
