"""Celery task names live in services/task_names.py only, and they are exactly the tasks the workers run."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from services import task_names
from services.indexer.celery_app import create_celery
from services.settings import Settings

SERVICES = Path(task_names.__file__).parent
TASKISH = re.compile(r"^paperlist\.[a-z_]+$")


def test_every_task_the_workers_run_is_named_once_and_every_name_is_run():
    app = create_celery(Settings())
    app.loader.import_default_modules()
    run = {name for name in app.tasks if name.startswith("paperlist.")}
    assert run == set(task_names.ALL)
    assert len(task_names.ALL) == len(set(task_names.ALL))


def test_no_module_but_task_names_spells_a_task_name():
    offenders = []
    for path in sorted(SERVICES.rglob("*.py")):
        if path == Path(task_names.__file__):
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in task_names.ALL:
                offenders.append(f"{path.relative_to(SERVICES.parent)}:{node.lineno}: {node.value!r}")
    assert not offenders, "name Celery tasks with services.task_names:\n" + "\n".join(offenders)


def test_the_names_are_in_the_tasks_namespace():
    assert all(TASKISH.match(name) for name in task_names.ALL)
