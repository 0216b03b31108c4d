"""The test tree itself: pytest (rootdir-relative imports, no packages) needs each test file's basename to be unique."""

import re
from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def test_every_test_module_basename_is_unique():
    names = Counter(p.name for p in TESTS.rglob("test_*.py"))
    assert [name for name, n in names.items() if n > 1] == []


def test_every_test_folder_runs_in_a_tier_of_deploy_test():
    """deploy/test names each tier's folders: a new folder of tests must join one, or it never runs in CI."""
    script = (TESTS.parent / "deploy" / "test").read_text()
    named = {m for line in script.splitlines() if line.startswith("tier ") for m in re.findall(r"tests/(\w+)", line)}
    folders = {p.parent.relative_to(TESTS).parts[0] for p in TESTS.rglob("test_*.py") if p.parent != TESTS}
    assert folders and sorted(folders - named) == []
