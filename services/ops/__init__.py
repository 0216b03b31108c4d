"""Local-stack operations: provisioning and running Elasticsearch, Redis, nginx and our processes.

Kept apart from the services so the indexer holds only ingest, reindex and tasks, and
nothing under ``services/`` but this package installs software or manages processes.
"""

from .processes import StackError
from .stack import LocalStack

__all__ = ["LocalStack", "StackError"]
