"""The site's page for what the front refused to read (nginx asks for it, tests/integration/test_front.py)."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("status, offers_similar", [(414, True), (413, True), (431, False), (400, False)])
def test_the_front_refusals_are_the_sites_pages(fake_client, status, offers_similar):
    resp = fake_client.get(f"/_front/errors/{status}")
    html = resp.get_data(as_text=True)
    assert resp.status_code == status and resp.headers["Content-Type"].startswith("text/html")
    assert resp.headers["Cache-Control"] == "no-store" and '<header class="site-header">' in html
    assert ('Papers like mine</a>.' in html) == offers_similar  # the way to a search by a long text
    assert "A search reads at most 500 characters" in html or status != 414


def test_only_the_fronts_own_refusals_are_pages_here(fake_client):
    assert fake_client.get("/_front/errors/500").status_code == 404
    assert fake_client.get("/_front/errors/404").status_code == 404
