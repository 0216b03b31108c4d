"""``paperlist mcp``: a command of the CLI that serves the MCP server over stdio with the settings of the environment."""

from __future__ import annotations

from click.testing import CliRunner

from services.cli import main
from services.cli import mcp as command


def test_paperlist_mcp_serves_stdio_with_the_environments_settings(monkeypatch):
    served = []
    monkeypatch.setenv("PAPERLIST_INDEX", "papers-for-agents")
    monkeypatch.setattr(command, "run_stdio", served.append)
    done = CliRunner().invoke(main, ["mcp"])
    assert done.exit_code == 0, done.output
    assert [s.index for s in served] == ["papers-for-agents"]
    assert done.output == ""  # stdout is the protocol's


def test_paperlist_lists_the_command():
    done = CliRunner().invoke(main, ["--help"])
    assert "mcp " in done.output and "MCP tools" in done.output
