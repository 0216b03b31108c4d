"""The reindex bench's own logic: its wrk answer log cut into periods, and what counts as failed."""

from pathlib import Path
from urllib.parse import parse_qsl

from bench.pipeline import reindex


def _log(tmp_path: Path, lines: list[str]) -> list[dict]:
    (tmp_path / "thread-0.log").write_text("".join(line + "\n" for line in lines))
    return reindex.read_answers(tmp_path)


def test_answers_are_placed_by_the_time_they_were_sent(tmp_path):
    answers = _log(tmp_path, ["2500000 1000000 200 7 0-1-3", "9000000 -1 502 - -", "torn"])
    assert answers[0] == {"sent": 1.5, "ms": 1000.0, "status": 200, "total": 7, "line": 3}
    assert answers[1]["line"] is None and answers[1]["total"] is None  # no tag came back: still counted
    assert len(answers) == 2  # a line torn by wrk's stop is skipped


def test_failed_counts_errors_missing_totals_and_queries_emptied_by_the_rebuild(tmp_path):
    answers = _log(tmp_path, [
        "1100000 100000 200 5 0-1-1", "1200000 100000 200 0 0-2-2",  # before: line 1 has hits, line 2 none
        "3100000 100000 200 0 0-3-1",  # during: line 1 emptied
        "3200000 100000 200 0 0-4-2",  # during: line 2 had none before either: fine
        "3300000 100000 503 - 0-5-1", "3400000 100000 200 - 0-6-2", "3500000 100000 200 6 0-7-1",
    ])
    expected = reindex.before_totals(answers, 0.0, 2.0)
    assert expected == {1: 5, 2: 0}
    during = reindex.window(answers, 2.0, 4.0, expected)
    assert during["requests"] == 5
    assert during["non_200"] == {"503": 1}
    assert during["without_total"] == 1 and during["emptied"] == 1
    assert during["failed"] == 3
    assert during["total_changed"] == 2  # 5 -> 0 and 5 -> 6
    assert during["rps"] == 2.5
    before = reindex.window(answers, 0.0, 2.0, expected)
    assert before["failed"] == 0 and before["p50"] == 100.0


def test_the_mix_is_canonical_api_searches_of_ten():
    paths = reindex.mix_paths()
    assert len(paths) == reindex.MIX_SIZE
    for path in paths[:50]:
        base, _, query = path.partition("?")
        assert base == "/api/v1/search"
        params = parse_qsl(query)
        assert ("page_size", "10") in params
        assert reindex.canonical_path(path) == path  # the app's own order


def test_the_script_paces_only_for_a_bounded_rate():
    assert "function delay" not in reindex.WRK_SCRIPT and "delay = paced_delay" in reindex.PACING
