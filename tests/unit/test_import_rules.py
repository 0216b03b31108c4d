"""The import rules of pyproject.toml (import-linter) hold, and they do fail on what they forbid.

The contracts are checked on the real tree, then on copies of it with one import added:
a circle between two modules, a view importing another view, the web importing the
indexer, the MCP server importing the indexer or the local stack, the web or the search layer importing the MCP
server, a module of the MCP server importing one above it, a leaf importing a view, a room of the search package importing one above it or
Elasticsearch, the indexer importing the site's reads, a room of the indexer importing one above it
or a sibling it must stay apart from. Each copy must break exactly the contract that says so.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT = ("import sys; from importlinter.cli import lint_imports; "
        "sys.exit(lint_imports(config_filename='pyproject.toml', no_cache=True, no_logo=True))")


def lint(root: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([sys.executable, "-c", LINT], cwd=root, env=env, capture_output=True, text=True,
                          timeout=120)


def test_the_tree_keeps_every_contract():
    done = lint(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


@pytest.fixture(scope="module")
def copy(tmp_path_factory) -> Path:
    """The services package and the contracts, apart from the real tree."""
    root = tmp_path_factory.mktemp("tree")
    shutil.copytree(ROOT / "services", root / "services", ignore=shutil.ignore_patterns("__pycache__", "*.npz"))
    shutil.copy(ROOT / "pyproject.toml", root / "pyproject.toml")
    return root


def _with_import(root: Path, module: str, line: str):
    path = root / "services" / (module.replace(".", "/") + ".py")
    original = path.read_text()
    path.write_text(original + f"\n{line}  # added by the test\n")
    return path, original


@pytest.mark.parametrize("module, line, broken", [
    # urls is imported by policy; policy importing urls back is a circle inside one layer.
    ("web.urls", "from . import policy", "No import circles"),
    ("web.views.pages", "from . import api", "A view never imports another view"),
    ("web.views.like_text", "from .api import search", "A view never imports another view"),
    ("web.http.metrics", "from services.indexer.ingest import progress", "The web never imports the indexer"),
    ("search.answers.results", "from services.web import urls", "The search layer imports neither"),
    # The search package's rooms: the write side builds no query, a body is built without a connection.
    ("search.records.documents", "from services.search.query import request", "The search package in rooms"),
    ("search.query.text_query", "from services.search.engine import client", "The search package in rooms"),
    ("search.answers.results", "import elasticsearch", "Only the search package's front door"),
    ("indexer.paper.normalise", "from services.search.answers import results", "The indexer does not read as the site"),
    # The indexer's rooms: cleaning knows no record, one paper's build no rebuild, a pass no ingest run.
    ("indexer.cleaning.text", "from services.indexer.paper import normalise", "The indexer in rooms"),
    ("indexer.paper.normalise", "from services.indexer.writes import bulk", "The indexer in rooms"),
    ("indexer.corpus.scales", "from services.indexer.ingest import progress", "The indexer in rooms"),
    ("indexer.maps.build", "from services.indexer.corpus import scales", "The indexer in rooms"),
    # The MCP server reads as the web does, and nothing below it knows it is there.
    ("mcp_server.tools", "from services.indexer.writes import bulk", "The MCP server reads as the web does"),
    ("mcp_server.server", "from services.ops import LocalStack", "The MCP server reads as the web does"),
    ("web.render.answers", "from services.mcp_server import briefs", "Nothing of the search layer, the indexer or the web"),
    ("search.service", "from services.mcp_server import server", "Nothing of the search layer, the indexer or the web"),
    ("mcp_server.briefs", "from . import tools", "The MCP server in layers"),
    ("web.policy", "from .views import pages", "The web in layers"),
    ("web.http.headers", "from ..cache import store", "The web in layers"),
])
def test_a_forbidden_import_breaks_its_contract(copy, module, line, broken):
    path, original = _with_import(copy, module, line)
    try:
        done = lint(copy)
    finally:
        path.write_text(original)
    assert done.returncode != 0, done.stdout
    report = done.stdout.split("Broken contracts", 1)[-1]
    assert broken in report, done.stdout
