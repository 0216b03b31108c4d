"""Cost: what one search or page costs, against its floor measured in the same run.

The floor is raw Elasticsearch for the same body (or its query alone), a bare Flask endpoint,
a bare Python worker passing the search on, or a linear scan of the corpus in memory; the
variants are interleaved per query so that the machine's load cancels out.
"""
