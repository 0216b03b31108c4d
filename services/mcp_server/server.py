"""The MCP server: the tools declared once (:data:`TOOLS`), assembled into the SDK's ``MCPServer``.

:func:`build_server` is the one factory: the settings, the search layer's front door (or a test's reads) and
the site's URLs go in, a server with every tool comes out. Two transports serve it:

- ``paperlist mcp`` runs it over stdio (:func:`run_stdio`), for a client that starts it;
- :func:`http_app` is its streamable HTTP app (ASGI, Starlette) at ``/mcp``, which uvicorn serves on
  ``run/mcp.sock`` behind nginx (``paperlist up``; compose: the ``mcp`` service). It is stateless and answers
  JSON: no session lives in a process, so every process behind nginx answers every request, on any host.

Each tool's input schema is its arguments model (the API's parameters, :mod:`.arguments`) and its output
schema the pydantic model of its answer (:mod:`.briefs`, the API's :mod:`services.web.render` models), both
published by the SDK (``tools/list``) and enforced by it (a call whose arguments do not fit is a tool error).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import FuncMetadata
from mcp.server.transport_security import TransportSecuritySettings
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel
from starlette.applications import Starlette

from services.search.engine.boundary import Deadlines, search_breaker
from services.search.engine.client import make_web_client, quiet_client_logs
from services.search.reads import SearchReads
from services.search.service import PaperSearch
from services.settings import Settings, load_settings
from services.web.render.bibtex_schemas import BibtexUpgrade
from services.web.render.schemas import Paper
from services.web.render.venue_schemas import Venue

from . import briefs
from .arguments import (
    Arguments,
    NameArguments,
    PaperArguments,
    PersonArguments,
    SearchArguments,
    UpgradeArguments,
    VenueArguments,
)
from .site import Site
from .tools import PaperTools

NAME = "paperlist"
PATH = "/mcp"  # where the streamable HTTP transport answers, behind nginx's location of the same path
INSTRUCTIONS = (
    "Search AI conference papers (NeurIPS, ICML, ICLR, ACL, CVPR and more): search_papers takes the site's query "
    "language and filters; get_paper, similar_papers and venue_stats read one paper, papers like it and a "
    "venue-year's figures; find_people and get_person tell the researchers of a name apart; upgrade_bibtex replaces "
    "a .bib's preprint entries by their venue versions. Every paper and person "
    "carries its page on the site (url)."
)
READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, destructive_hint=False, open_world_hint=False)


@dataclass(frozen=True)
class ToolSpec:
    """One tool: its name and description, its arguments (the API's), the model of its answer, what answers."""

    name: str
    title: str
    description: str
    arguments: type[Arguments]
    answer: type[BaseModel]
    run: Callable[[PaperTools, Any], dict[str, Any]]


TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec("search_papers", "Search papers",
             "Search papers as the site and GET /api/v1/search do: q in the query language (words all required, "
             '"phrases", -exclusion, OR, prefix*, scopes title: author: abstract: aff: conference: year: person:<id>) '
             "and filters (conference, year or range, topic, track, status, ...), sort, page and page_size. Answers "
             "a page of compact papers: id, title, authors, venue, year, the abstract's start and the paper's url.",
             SearchArguments, briefs.PaperList, PaperTools.search_papers),
    ToolSpec("get_paper", "Get a paper",
             "One paper by its id (from search_papers), in full: authors with affiliations, abstract, links, "
             "reviews, BibTeX and its page on the site (GET /api/v1/papers/{paper_id}).",
             PaperArguments, Paper, PaperTools.get_paper),
    ToolSpec("similar_papers", "Similar papers",
             "Papers like a paper, by its id: nearest by embedding fused with more-like-this on its words (the "
             "site's \"similar papers\", GET /api/v1/papers/{paper_id}/similar).",
             PaperArguments, briefs.SimilarList, PaperTools.similar_papers),
    ToolSpec("venue_stats", "Venue statistics",
             "A venue-year's figures (slug such as neurips, iclr or acl, and a year): records by decision, the "
             "acceptance rate and its definition, review scores by decision and who publishes there "
             "(GET /api/v1/venues/{slug}/{year}).",
             VenueArguments, Venue, PaperTools.venue_stats),
    ToolSpec("find_people", "Find people by name",
             "The researchers who write under a name (case, accents and middle initials aside), the most papers "
             "first, each with their person id, label (name and main affiliation), years, newest paper and page "
             "(GET /api/v1/people?name=, each person narrowed: get_person has the rest).",
             NameArguments, briefs.PeopleBriefs, PaperTools.find_people),
    ToolSpec("get_person", "Get a person",
             "A researcher by person id (from find_people or a paper's author_ids) and a page of their papers, "
             "newest first; a retired id answers its successors (GET /api/v1/people/{person_id}).",
             PersonArguments, briefs.PersonBriefs, PaperTools.get_person),
    ToolSpec("upgrade_bibtex", "Upgrade a .bib to venue versions",
             "Replace a .bib's preprint entries (arXiv, CoRR) by the venue entries of their papers, as POST "
             "/api/v1/bibtex/upgrade does: each entry's outcome (upgraded, already a venue entry, ambiguous with "
             "both papers offered, not found, unreadable and passed through), the venue paper, and the whole new "
             "file; your citation keys kept, and the fields named in keep (note,url) kept from your entries.",
             UpgradeArguments, BibtexUpgrade, PaperTools.upgrade_bibtex),
)


def _tool(spec: ToolSpec, tools: PaperTools) -> Tool:
    """``spec`` as the SDK's tool: arguments validated by the SDK against ``spec.arguments``, the answer against
    ``spec.answer``: structured content, and the same JSON as text for clients that read only text (compact: the
    SDK's own text is indented, twice the tokens)."""
    def call(**arguments: Any) -> CallToolResult:
        answer = spec.run(tools, spec.arguments.model_construct(**arguments))
        return CallToolResult(content=[TextContent(type="text", text=orjson.dumps(answer).decode())],
                              structured_content=answer)

    return Tool(fn=call, name=spec.name, title=spec.title, description=spec.description,
                parameters=spec.arguments.model_json_schema(by_alias=True),
                fn_metadata=FuncMetadata(arg_model=spec.arguments, output_model=spec.answer),
                is_async=False, annotations=READ_ONLY)


def search_reads(settings: Settings) -> SearchReads:
    """The search layer's front door with the web's deadlines and breaker (no result cache: the edge of an agent's
    calls is nginx's rate limit, and each call is one search)."""
    quiet_client_logs()
    return PaperSearch(make_web_client(settings), settings.index,
                       deadlines=Deadlines(search=settings.search_budget, ready=settings.ready_budget,
                                           facets=settings.facets_budget),
                       breaker=search_breaker(settings.breaker_failures, settings.breaker_cooldown),
                       maps_index=settings.maps_index_of(settings.index))


def build_server(settings: Settings, reads: SearchReads | None = None) -> MCPServer:
    """The server over Elasticsearch, or over ``reads`` (a test's fake)."""
    tools = PaperTools(reads or search_reads(settings), Site(settings))
    return MCPServer(NAME, title="paperlist", instructions=INSTRUCTIONS, website_url=settings.public_url,
                     tools=[_tool(spec, tools) for spec in TOOLS], log_level="WARNING")


def run_stdio(settings: Settings) -> None:
    """Serve over stdin and stdout until the client closes them (``paperlist mcp``)."""
    build_server(settings).run("stdio")


def http_app(settings: Settings | None = None, reads: SearchReads | None = None) -> Starlette:
    """The streamable HTTP app at :data:`PATH`, stateless with JSON answers (uvicorn's ``--factory``).

    DNS-rebinding protection (the SDK's Host and Origin checks) is off: it guards a server on a user's own
    machine, and this one serves public, read-only data behind nginx, which sets the Host the site is asked
    by; the JSON API gives the same to every origin.
    """
    settings = settings or load_settings()
    return build_server(settings, reads).streamable_http_app(
        streamable_http_path=PATH, stateless_http=True, json_response=True,
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False))
