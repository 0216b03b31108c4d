"""The canonical ETag: one per canonical request, generation, release and encoding; matched like RFC 9110 says."""

from __future__ import annotations

from services.web.http.validators import canonical_etag, matches, release_tag

BASE = {"release": "r1", "generation": 7, "host": "papers.example.org", "path": "/search",
        "query": "q=graph", "gzipped": True}


def test_the_tag_changes_with_everything_the_answer_depends_on():
    tag = canonical_etag(**BASE)
    assert tag == canonical_etag(**BASE)
    for change in ({"release": "r2"}, {"generation": 8}, {"host": "other.example"}, {"path": "/"},
                   {"query": "q=graph&year=2024"}, {"gzipped": False}):
        assert canonical_etag(**{**BASE, **change}) != tag, change


def test_if_none_match_names_the_tag_strong_or_weak_in_a_list():
    tag = canonical_etag(**BASE)
    assert matches(f'"{tag}"', tag) and matches(f'W/"{tag}"', tag) and matches(f'"x", "{tag}"', tag)
    assert not matches(None, tag) and not matches("", tag) and not matches('"other"', tag)
    assert not matches(tag, tag)  # unquoted is malformed
    assert not matches("*", tag)  # left to the view, which knows whether the page exists


def test_the_release_follows_the_code(tmp_path):
    (tmp_path / "view.py").write_text("one")
    (tmp_path / "notes.bin").write_text("ignored")
    first = release_tag([tmp_path])
    (tmp_path / "notes.bin").write_text("changed")
    assert release_tag([tmp_path]) == first
    (tmp_path / "view.py").write_text("two")
    assert release_tag([tmp_path]) != first
