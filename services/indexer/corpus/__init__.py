"""Passes that need every paper of an alias: what one paper's record cannot say alone.

The names other papers give a paper and who introduced a name (``names``), a venue-year's prominence
scale (``scales``). A pass reads the alias whole, decides, and writes only what changed; an ingest runs it
after its batches, a rebuild before its swap.
"""
