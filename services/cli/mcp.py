"""``paperlist mcp``: the MCP server over stdio, for an agent's client that starts it (issue 48).

stdout carries the protocol only: nothing here prints. Its streamable HTTP transport is not started here but by
``paperlist up`` (uvicorn on ``run/mcp.sock`` behind nginx's ``/mcp``).
"""

from __future__ import annotations

import click

from services.mcp_server.server import run_stdio

from .common import friendly, settings


@click.command()
@friendly
def mcp() -> None:
    """Serve the MCP tools (search_papers, get_paper, ...) over stdin/stdout until the client closes them."""
    run_stdio(settings())
