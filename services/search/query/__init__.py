"""From a request to an Elasticsearch body: everything a search asks, built and never sent here.

The request as a typed value (``request``, with its ``sorting`` and ``facets``), the query
language that never fails (``query_language``) and its text query (``text_query``), how
matches are ordered beyond BM25 (``ranking``), the whole body of a search (``search_body``)
and of a kNN or hybrid one (``semantic``), and how two ranked lists are fused (``fusion``).
Pure functions over the records and the catalogue: nothing here talks to Elasticsearch
(``engine``) or reads an answer (``answers``).
"""
