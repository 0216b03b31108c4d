"""The benchmarks are findable: every script in bench/ has its line in the README's table, and the
docs cite commands to run, not result files (bench/results/ is kept out of git)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DOCS = [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]


def _scripts() -> set[str]:
    return {p.relative_to(ROOT / "bench").as_posix() for p in (ROOT / "bench").glob("*/*.py")
            if 'if __name__ == "__main__"' in p.read_text()}


def test_every_bench_script_has_a_line_in_the_readme_table():
    readme = (ROOT / "README.md").read_text()
    described = set(re.findall(r"^\| `bench/(\w+/\w+\.py)` \|", readme, flags=re.MULTILINE))
    scripts = _scripts()
    assert scripts, "no bench scripts found"
    assert sorted(scripts - described) == []
    assert sorted(described - scripts) == []


def test_the_docs_cite_no_result_file_that_git_ignores():
    assert "/bench/results/" in (ROOT / ".gitignore").read_text()
    cited = [(doc.name, m) for doc in DOCS for m in re.findall(r"bench/results/[\w*.-]+\.json", doc.read_text())]
    assert cited == []
