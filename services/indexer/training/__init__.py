"""Training the corpus embedding model (``paperlist embeddings train``): imported only by that command and benches."""
