"""The paper as the index stores it: the write side's contract, shared with every reader.

The typed record (``model.Paper``), the index's mapping and analysis (``schema``), the document
built from a paper and read back (``documents``), and what the indexer derives for each paper:
its names and their keys (``paper_names``, ``name_keys``), its prominence prior (``prominence``)
and its embedding (``embedding``, with the shipped model in ``models/``). The indexer imports
this room and the catalogue, nothing else of the search package; nothing here builds a query,
shapes an answer or talks to Elasticsearch.
"""
