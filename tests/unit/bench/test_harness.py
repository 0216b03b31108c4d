"""The benches' harness: loopback targets only, and the wrk command line and its result."""

from pathlib import Path

import pytest

from bench import harness
from bench.harness import WRK_JSON, wrk_argv, wrk_result


def test_only_loopback_targets_are_accepted():
    assert harness.loopback("http://127.0.0.1:8000") and harness.loopback("http://localhost:8000")
    assert harness.loopback("http://[::1]:8000")
    assert not harness.loopback("http://10.0.0.5:8000") and not harness.loopback("https://example.org")


def test_wrk_argv_is_bounded_and_passes_headers_and_script_arguments():
    argv = wrk_argv("http://127.0.0.1:8000", Path("/tmp/s.lua"), threads=2, connections=8, seconds=10,
                    timeout=2.5, headers={"Accept-Encoding": "gzip"}, script_args=(Path("/tmp/paths"), 3))
    assert argv[:8] == ["wrk", "-t2", "-c8", "-d10s", "--timeout", "2.5s", "-s", "/tmp/s.lua"]
    assert argv[argv.index("-H") + 1] == "Accept-Encoding: gzip"
    assert argv[-4:] == ["http://127.0.0.1:8000", "--", "/tmp/paths", "3"]
    assert wrk_argv("http://x", Path("s"), threads=1, connections=1, seconds=1)[-1] == "http://x"


def test_wrk_result_reads_the_marked_line_or_exits_with_what_wrk_said():
    assert wrk_result(f"Running 1s test\n{WRK_JSON}" + '{"requests": 7}\n', "") == {"requests": 7}
    with pytest.raises(SystemExit, match="no result for /x: unable to connect"):
        wrk_result("", "unable to connect", " for /x")
