"""The JSON answers of the admin API (``/api/v1/admin``): a rebuild queued, its progress, a task's state.

Apart from :mod:`.schemas` because they follow another rule: they relay what the worker
reports, which may carry keys of its own, so extra keys are allowed and only the keys
named here are described; the public answers forbid any key their model does not declare.
"""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field

from .schemas import Answer, Count


class ReindexQueued(Answer):
    """What the worker answers, relayed (it may add keys); the task id is always there."""

    model_config = ConfigDict(extra="allow", json_schema_serialization_defaults_required=False)

    task_id: str
    run_id: str | None = None
    status: str | None = None
    status_url: str | None = None


class ReindexProgress(Answer):
    """The current or last rebuild, as the worker reports it (it may add keys); phase "none" when there was none."""

    model_config = ConfigDict(extra="allow", json_schema_serialization_defaults_required=False)

    phase: str
    copied: Count | None = None
    total: Count | None = None
    replayed: Count | None = None
    message: str | None = Field(None, description="Why a rebuild that is not done stopped (abandoned).")


class TaskState(Answer):
    """A task the admin API started: its Celery state, and its result once it is ready."""

    model_config = ConfigDict(json_schema_serialization_defaults_required=False)

    task_id: str
    state: str
    result: Any = Field(None, description="Once ready: the task's answer, or its error as text.")


# The models the document names (components/schemas), last.
COMPONENTS: tuple[type[Answer], ...] = (ReindexQueued, ReindexProgress, TaskState)
