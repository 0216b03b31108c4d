"""The corpus passes asked for after a write (services/indexer/ingest/passes.py): one after the other."""

from __future__ import annotations

from celery import Celery

from services import task_names
from services.indexer.ingest import passes


class _Marks:
    """The little of Redis ``mark`` uses: HSET."""

    def __init__(self):
        self.hashes: dict[str, dict] = {}

    def hset(self, key, mapping):
        self.hashes.setdefault(key, {}).update(mapping)


def test_the_people_pass_follows_the_names_pass_so_a_batch_always_finds_a_free_slot(monkeypatch):
    app = Celery("passes-test", broker="memory://")
    sent = []
    monkeypatch.setattr("celery.app.base.Celery.send_task",
                        lambda self, name, args=None, kwargs=None, **options: sent.append((name, options)) or
                        __import__("celery").result.AsyncResult(options["task_id"], app=self))
    ids = passes.request(app, _Marks(), "papers", "paperlist", "run-1")
    assert [name for name, _ in sent] == [task_names.NAMES]          # one task sent: the names pass
    follow = sent[0][1]["chain"]                                     # the people pass rides on it
    assert [step["task"] for step in follow] == [task_names.PEOPLE]
    assert list(follow[0]["args"]) == ["papers", "run-1"] and follow[0]["immutable"]
    assert set(ids) == {"names", "people"} and ids["names"] == sent[0][1]["task_id"] != ids["people"]
