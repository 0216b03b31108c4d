"""The ``paperlist`` command: up, down, purge-edge, status, ingest, sources, passes, reindex, maps, embeddings, people,
mcp (one module per command).

Failures an operator can cause or meet (a missing file, Elasticsearch down, no worker)
end with one ``error:`` line and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import click

from . import embeddings, ingest, maps, mcp, passes, people, reindex, sources, stack, status

__all__ = ["main"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """paperlist: search engine for AI conference papers — operations."""


for _command in (stack.up, stack.down, stack.purge_edge, status.status, ingest.ingest, sources.sources,
                 passes.passes, reindex.reindex, maps.maps, embeddings.embeddings, people.people, mcp.mcp):
    main.add_command(_command)
