"""The names a paper is known by across the corpus: the decision (``decide``) and its pass over an index (``index_pass``)."""
