"""Edge views leave the app gzipped, so the edge keeps compressed bytes and nginx never compresses a hit again."""

from __future__ import annotations

import gzip

from fake_reads import fake_app


def test_a_paper_page_is_gzipped_once_by_the_app_for_a_client_that_accepts_it():
    client = fake_app().test_client()
    resp = client.get("/papers/iclr-2018-p1", headers={"Accept-Encoding": "gzip"})
    assert resp.status_code == 200 and resp.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in resp.headers["Vary"]
    page = gzip.decompress(resp.get_data()).decode()
    assert "<html" in page and "</html>" in page


def test_a_client_without_gzip_gets_the_same_page_plain():
    client = fake_app().test_client()
    plain = client.get("/papers/iclr-2018-p1", headers={"Accept-Encoding": "identity"})
    zipped = client.get("/papers/iclr-2018-p1", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in plain.headers
    assert gzip.decompress(zipped.get_data()) == plain.get_data()
    assert plain.headers.get("ETag") != zipped.headers.get("ETag")  # a tag names its bytes


def test_answers_outside_the_edge_are_left_to_the_front():
    client = fake_app().test_client()
    resp = client.get("/healthz", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in resp.headers
