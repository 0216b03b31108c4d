"""The MCP server (issue 48): research assistants and coding agents search papers through tools.

A third front beside the site and the JSON API, over the same reads: the search package's front door
(:class:`services.search.service.PaperSearch`), the API's parameters (:mod:`.arguments`) and answers
(:mod:`.answers`). One :class:`mcp.server.mcpserver.MCPServer` (:mod:`.server`) is served over stdio
(``paperlist mcp``) and over streamable HTTP (``/mcp`` behind nginx, uvicorn on ``run/mcp.sock``).

Named ``mcp_server``, not ``mcp``: ``import mcp`` anywhere must reach the SDK.
"""
