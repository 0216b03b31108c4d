"""The benchmarks, a package by kind, each run as ``python -m bench.<kind>.<name>`` from the repo root.

Every speed figure is a ratio measured in one run against a floor (nginx serving a static file,
raw Elasticsearch for the same query, ``parallel_bulk``, a linear scan), because these machines
are noisy. Kinds: :mod:`bench.relevance` (does the right paper come first), :mod:`bench.cost`
(what one request costs against its floor), :mod:`bench.capacity` (the box under a crowd),
:mod:`bench.pipeline` (ingest, rebuild, maps, embeddings) and :mod:`bench.corpus` (what the
cleaning, the topics and the ingest make of the whole corpus). Shared: :mod:`bench.harness`
(stores, a worker, wrk, stats, results) and :mod:`bench.querymix` (the queries they send).
``bench/README.md`` is the catalogue.
"""
