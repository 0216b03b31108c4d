"""The indexer: what turns source lists into searchable papers, run by Celery workers and the operator's CLI.

Rooms, each a package with its rule (the ``indexer-rooms`` contract in pyproject.toml keeps them in
layers: a room imports only rooms below it):

* ``tasks``, ``status``      the Celery tasks (thin: each hands its work to a room) and the operator's report
* ``rebuild``               a zero-downtime reindex: copy, replay concurrent writes, swap the alias
* ``ingest``                an ingest run: the operator's side (read, batch, send, wait), a worker's batch, its progress
* ``maps`` | ``corpus`` | ``training``
                            work over many papers: a venue-year's map; passes that need every paper of an alias
                            (the names others give a paper, venue-year scales); the embedding model's training
* ``writes``                bulk writes into the live index, each paper's vectors, the journal a rebuild replays
* ``paper``                 one record -> :class:`~services.search.records.model.Paper`: identity, fields, topics, own names
* ``sources``               where records come from: a reader per format maps its fields, never cleans them
* ``cleaning``              pure repair of one field's text (names, affiliations, links, reviews), its rules in ``vocab/``

``celery_app`` (the Celery factory) and ``worker`` (its entry point) stay at the top, where deploy files name them.
"""
