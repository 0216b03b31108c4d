"""Pipeline: ingest, rebuild, maps and embeddings, against the floor of doing the same work directly.

The Celery ingest against ``parallel_bulk`` of the same documents, a rebuild under search load,
the venue-year maps, the embedding model (training, throughput, quality) and the vector index type.
"""
