"""Elasticsearch itself: reaching it, naming its indices, and failing well when it does not answer.

The client (``client``: hosts, timeouts, retries), the versioned indices behind the alias
(``indices``), the generation every write bumps for the caches (``generation``), and the
boundary every read crosses (``boundary``: Elasticsearch's exceptions become the search
layer's, per-request deadlines, the circuit breaker of ``breaker``). Of the search package
only its front door (``service``) imports this room: building a query or shaping an answer
never needs a connection. The indexer, the CLI and the web's assembly use it directly.
"""
