"""The benchmarks are findable: every bench of the package has its row in bench/README.md's catalogue and
every row names a bench that runs, every other module is named there too, a bench imports only its own
kind and the shared modules, and the docs cite commands to run, not result files (bench/results/ is
kept out of git)."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
BENCH = ROOT / "bench"
CATALOGUE = BENCH / "README.md"
DOCS = [ROOT / "README.md", CATALOGUE, *(ROOT / "docs").glob("*.md")]
SHARED = {"bench", "bench.harness", "bench.querymix"}


def _module(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def _kind_modules() -> list[Path]:
    return [p for p in BENCH.glob("*/*.py") if p.name != "__init__.py"]


def _benches() -> set[str]:
    return {_module(p) for p in _kind_modules() if 'if __name__ == "__main__"' in p.read_text()}


def test_every_bench_has_a_row_in_the_catalogue_and_every_row_runs():
    listed = set(re.findall(r"^\| `(bench\.\w+\.\w+)` \|", CATALOGUE.read_text(), flags=re.MULTILINE))
    benches = _benches()
    assert benches, "no benches found"
    assert sorted(benches - listed) == []
    assert sorted(listed - benches) == []


def test_every_other_module_of_the_package_is_named_in_the_catalogue():
    text = CATALOGUE.read_text()
    helpers = {p.relative_to(BENCH).as_posix() for p in [*BENCH.glob("*.py"), *_kind_modules()]
               if p.name != "__init__.py" and _module(p) not in _benches()}
    assert helpers, "no shared modules found"
    assert sorted(h for h in helpers if f"`{h}`" not in text) == []


def test_a_bench_imports_only_its_own_kind_and_the_shared_modules():
    strays = []
    for path in _kind_modules():
        kind = f"bench.{path.parent.name}"
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module] if isinstance(node, ast.ImportFrom) and node.module else [])
            strays += [(path.name, n) for n in names
                       if n.split(".")[0] == "bench" and n not in SHARED and not n.startswith(f"{kind}.") and n != kind]
    assert strays == []


def test_the_docs_cite_no_result_file_that_git_ignores():
    assert "/bench/results/" in (ROOT / ".gitignore").read_text()
    cited = [(doc.name, m) for doc in DOCS for m in re.findall(r"bench/results/[\w*.-]+\.json", doc.read_text())]
    assert cited == []
