"""Source readers: folders, .json/.json.gz files, damaged arrays, and http(s) URLs (a local server)."""

from __future__ import annotations

import functools
import gzip
import http.server
import json
import threading
from pathlib import Path

import pytest

from services.indexer.sources import SourceError, expand, is_url, load, parse_array

RECORDS = [{"id": f"p{i}", "title": f"Paper {i}", "author": "A;B"} for i in range(3)]


def write_json(path: Path, data, *, gz: bool = False, indent: int | None = 4) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = json.dumps(data, indent=indent).encode()
    path.write_bytes(gzip.compress(raw) if gz else raw)
    return path


# --- expand -----------------------------------------------------------------------------------

class TestExpand:
    def test_folder_is_searched_recursively_sorted_only_json(self, tmp_path):
        wanted = [
            write_json(tmp_path / "b" / "c" / "deep2020.json.gz", RECORDS, gz=True),
            write_json(tmp_path / "a" / "x2019.json", RECORDS),
            write_json(tmp_path / "top.json", RECORDS),
            write_json(tmp_path / "a" / "UPPER.JSON", RECORDS),
        ]
        (tmp_path / "notes.txt").write_text("x")
        (tmp_path / "a" / "data.json.bak").write_text("[]")
        (tmp_path / "a" / "archive.gz").write_bytes(gzip.compress(b"[]"))
        (tmp_path / "folder.json").mkdir()  # a directory with a .json name is not a file
        found = list(expand([str(tmp_path)]))
        assert found == sorted(str(p.resolve()) for p in wanted)
        assert found == sorted(found)

    def test_single_file_and_url_pass_through(self, tmp_path):
        f = write_json(tmp_path / "iclr2020.json", RECORDS)
        url = "https://example.org/iclr2020.json.gz"
        assert list(expand([str(f), url])) == [str(f.resolve()), url]

    def test_several_sources_keep_their_order(self, tmp_path):
        b = write_json(tmp_path / "b.json", RECORDS)
        a = write_json(tmp_path / "a.json", RECORDS)
        assert list(expand([str(b), str(a)])) == [str(b.resolve()), str(a.resolve())]

    def test_missing_path_names_the_path(self, tmp_path):
        missing = str(tmp_path / "nope" / "iclr2020.json")
        with pytest.raises(SourceError) as info:
            list(expand([missing]))
        assert missing in str(info.value)

    def test_folder_without_json_files(self, tmp_path):
        (tmp_path / "readme.txt").write_text("x")
        with pytest.raises(SourceError) as info:
            list(expand([str(tmp_path)]))
        assert str(tmp_path) in str(info.value)

    @pytest.mark.parametrize("value, url", [
        ("http://x.org/a.json", True), ("https://x.org/a.json", True), ("ftp://x.org/a.json", False),
        ("/data/a.json", False), ("a.json", False),
    ])
    def test_is_url(self, value, url):
        assert is_url(value) is url


# --- load: whole files ------------------------------------------------------------------------

class TestLoadFiles:
    def test_plain_json(self, tmp_path):
        loaded = load(str(write_json(tmp_path / "a.json", RECORDS)))
        assert loaded.records == list(enumerate(RECORDS))
        assert loaded.errors == []

    def test_gzip(self, tmp_path):
        loaded = load(str(write_json(tmp_path / "a.json.gz", RECORDS, gz=True)))
        assert loaded.records == list(enumerate(RECORDS))
        assert loaded.errors == []

    def test_gzip_detected_by_magic_bytes_not_name(self, tmp_path):
        loaded = load(str(write_json(tmp_path / "a.json", RECORDS, gz=True)))
        assert loaded.records == list(enumerate(RECORDS))

    def test_plain_json_with_gz_name(self, tmp_path):
        loaded = load(str(write_json(tmp_path / "a.json.gz", RECORDS)))
        assert loaded.records == list(enumerate(RECORDS))

    def test_damaged_gzip(self, tmp_path):
        path = tmp_path / "a.json.gz"
        path.write_bytes(gzip.compress(json.dumps(RECORDS).encode())[:30])
        with pytest.raises(SourceError) as info:
            load(str(path))
        assert str(path) in str(info.value)

    def test_location_is_kept(self, tmp_path):
        path = str(write_json(tmp_path / "a.json", RECORDS))
        assert load(path).location == path

    def test_empty_array(self, tmp_path):
        loaded = load(str(write_json(tmp_path / "a.json", [])))
        assert loaded.records == [] and loaded.errors == []

    def test_utf8_bom(self, tmp_path):
        path = tmp_path / "a.json"
        path.write_bytes(b"\xef\xbb\xbf" + json.dumps(RECORDS, ensure_ascii=False).encode())
        loaded = load(str(path))
        assert loaded.records == list(enumerate(RECORDS))
        assert loaded.errors == []

    def test_non_ascii_text_survives(self, tmp_path):
        data = [{"title": "Réseaux de neurones — 深度学习", "author": "Jakub Łącki"}]
        path = tmp_path / "a.json"
        path.write_bytes(json.dumps(data, ensure_ascii=False).encode())
        assert load(str(path)).records == [(0, data[0])]

    def test_invalid_utf8_is_replaced_and_reported(self, tmp_path):
        path = tmp_path / "a.json"
        raw = b'[{"title": "Caf\xe9 networks"}, {"title": "Fine"}]'
        path.write_bytes(raw)
        loaded = load(str(path))
        assert loaded.records == [(0, {"title": "Caf\ufffd networks"}), (1, {"title": "Fine"})]
        assert len(loaded.errors) == 1
        position, reason = loaded.errors[0]
        assert position is None
        assert "UTF-8" in reason and str(raw.index(b"\xe9")) in reason

    def test_top_level_object_is_a_source_error(self, tmp_path):
        path = write_json(tmp_path / "a.json", {"title": "not an array"})
        with pytest.raises(SourceError, match="expected a JSON array") as info:
            load(str(path))
        assert str(path) in str(info.value)

    @pytest.mark.parametrize("data", ["just text", 42, None])
    def test_top_level_scalar_is_a_source_error(self, tmp_path, data):
        with pytest.raises(SourceError):
            load(str(write_json(tmp_path / "a.json", data)))

    def test_papers_wrapper_object_is_accepted(self, tmp_path):
        loaded = load(str(write_json(tmp_path / "a.json", {"papers": RECORDS})))
        assert loaded.records == list(enumerate(RECORDS))

    def test_not_json_at_all(self, tmp_path):
        path = tmp_path / "a.json"
        path.write_text("this is not json")
        with pytest.raises(SourceError, match="not JSON"):
            load(str(path))

    def test_missing_file(self, tmp_path):
        missing = str(tmp_path / "missing.json")
        with pytest.raises(SourceError) as info:
            load(missing)
        assert missing in str(info.value)

    def test_non_object_elements_are_kept_for_the_normaliser(self, tmp_path):
        loaded = load(str(write_json(tmp_path / "a.json", [{"title": "A"}, "junk", 3])))
        assert loaded.records == [(0, {"title": "A"}), (1, "junk"), (2, 3)]


# --- load: damaged arrays ---------------------------------------------------------------------

def _array(*items: str) -> str:
    """A 4-space indented array, one record per line, like the source files."""
    return "[\n" + ",\n".join("    " + i for i in items) + "\n]"


def good(i: int) -> str:
    return json.dumps({"id": f"p{i}", "title": f"Paper {i}"})


class TestSalvage:
    def test_cut_in_the_middle_of_a_record(self, tmp_path):
        text = _array(good(0), good(1), good(2))
        cut = text[: text.index('"Paper 2"') + 4]
        path = tmp_path / "a.json"
        path.write_text(cut)
        loaded = load(str(path))
        assert loaded.records == [(0, {"id": "p0", "title": "Paper 0"}), (1, {"id": "p1", "title": "Paper 1"})]
        assert len(loaded.errors) == 1
        position, reason = loaded.errors[0]
        assert position == 2
        assert "line 4" in reason

    def test_cut_gzip_file_in_the_middle(self, tmp_path):
        text = _array(*(good(i) for i in range(50)))
        cut = text[: len(text) // 2]
        path = tmp_path / "a.json.gz"
        path.write_bytes(gzip.compress(cut.encode()))
        loaded = load(str(path))
        assert loaded.records
        assert [p for p, _ in loaded.records] == list(range(len(loaded.records)))
        assert all(r == {"id": f"p{p}", "title": f"Paper {p}"} for p, r in loaded.records)
        assert len(loaded.errors) == 1

    def test_corrupted_record_in_the_middle(self, tmp_path):
        bad = '{"id": "p2", "title": "Paper 2" "author": "x"}'
        text = _array(good(0), good(1), bad, good(3), good(4))
        loaded = parse_array("a.json", text)
        assert [p for p, _ in loaded.records] == [0, 1, 3, 4]
        assert [r["id"] for _, r in loaded.records] == ["p0", "p1", "p3", "p4"]
        assert len(loaded.errors) == 1
        position, reason = loaded.errors[0]
        assert position == 2
        assert "line 4" in reason  # "[" is line 1, the damaged record line 4

    def test_two_damaged_stretches_are_each_reported_once(self):
        text = _array(good(0), '{"id": "p1", oops}', good(2), good(3), "{broken", good(5))
        loaded = parse_array("a.json", text)
        assert [p for p, _ in loaded.records] == [0, 2, 3, 5]
        assert [p for p, _ in loaded.errors] == [1, 4]
        assert "line 3" in loaded.errors[0][1]
        assert "line 6" in loaded.errors[1][1]

    def test_garbage_before_the_first_record(self):
        loaded = parse_array("a.json", _array("garbage", good(1)))
        assert loaded.records == [(1, {"id": "p1", "title": "Paper 1"})]
        assert [p for p, _ in loaded.errors] == [0]

    def test_bibtex_braces_inside_strings_do_not_confuse_the_salvage(self):
        bibtex = '@inproceedings{key2020,\n  title={Deep {N}ets: \\"quoted\\" {x}},\n  author={A and B}\n}'
        damaged = '{"id": "p1", "year": 20x0, "bibtex": ' + json.dumps(bibtex) + "}"
        after = json.dumps({"id": "p2", "title": "Paper 2", "bibtex": bibtex})
        loaded = parse_array("a.json", _array(good(0), damaged, after, good(3)))
        assert [p for p, _ in loaded.records] == [0, 2, 3]
        assert loaded.records[1][1]["bibtex"] == bibtex
        assert [p for p, _ in loaded.errors] == [1]

    def test_escaped_quote_after_brace_is_not_a_record_start(self):
        damaged = '{"id": "p1", oops, "note": "see {\\"a\\": 1} here"}'
        loaded = parse_array("a.json", _array(good(0), damaged, good(2)))
        assert [p for p, _ in loaded.records] == [0, 2]
        assert [p for p, _ in loaded.errors] == [1]

    @pytest.mark.parametrize("damaged", [
        '{"id": "p1", oops, "meta": {"k": 1}}',
        '{"id": "p1", oops, "bibtex": "@inproceedings{", "x": "y"}',
    ])
    def test_resync_does_not_land_inside_the_damaged_record(self, damaged):
        loaded = parse_array("a.json", _array(good(0), damaged, good(2)))
        assert loaded.records == [(0, {"id": "p0", "title": "Paper 0"}), (2, {"id": "p2", "title": "Paper 2"})]
        assert [p for p, _ in loaded.errors] == [1]

    def test_array_cut_between_records_is_reported(self):
        text = _array(good(0), good(1), good(2))
        cut = text[: text.index(good(2))]  # ends with ",\n    "
        loaded = parse_array("a.json", cut)
        assert [p for p, _ in loaded.records] == [0, 1]
        assert loaded.errors


# --- load: http(s) ------------------------------------------------------------------------------

class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the stdlib's signature
        pass


@pytest.fixture
def http_dir(tmp_path, monkeypatch):
    """A tiny local HTTP server over a temp folder: yields (folder, base URL)."""
    for var in ("HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    root = tmp_path / "www"
    root.mkdir()
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield root, f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


# The unit tier reaches no server (--disable-socket, deploy/test) but these tests' own, on loopback.
@pytest.mark.allow_hosts(["127.0.0.1"])
class TestLoadUrl:
    def test_plain_json_url(self, http_dir):
        root, base = http_dir
        write_json(root / "iclr" / "iclr2020.json", RECORDS)
        url = f"{base}/iclr/iclr2020.json"
        loaded = load(url, timeout=10)
        assert loaded.location == url
        assert loaded.records == list(enumerate(RECORDS))
        assert loaded.errors == []

    def test_gzipped_url(self, http_dir):
        root, base = http_dir
        write_json(root / "iclr2020.json.gz", RECORDS, gz=True)
        loaded = load(f"{base}/iclr2020.json.gz", timeout=10)
        assert loaded.records == list(enumerate(RECORDS))

    def test_damaged_download_is_salvaged(self, http_dir):
        root, base = http_dir
        (root / "a.json").write_text(_array(good(0), '{"id": "p1" x}', good(2)))
        loaded = load(f"{base}/a.json", timeout=10)
        assert [p for p, _ in loaded.records] == [0, 2]
        assert [p for p, _ in loaded.errors] == [1]

    def test_404_is_a_source_error(self, http_dir):
        _, base = http_dir
        url = f"{base}/missing.json"
        with pytest.raises(SourceError) as info:
            load(url, timeout=10)
        assert "404" in str(info.value)
        assert url in str(info.value)

    def test_unreachable_host_is_a_source_error(self, http_dir):
        _, base = http_dir
        # a port nobody listens on: bind and close to get a free one
        import socket
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        url = f"http://127.0.0.1:{port}/a.json"
        with pytest.raises(SourceError) as info:
            load(url, timeout=5)
        assert url in str(info.value)

    def test_expand_passes_urls_through(self, http_dir):
        _, base = http_dir
        assert list(expand([f"{base}/x.json"])) == [f"{base}/x.json"]
