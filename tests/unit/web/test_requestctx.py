"""Writes deferred until the answer is sent (services/web/requestctx.py): run at close, after the
answer, each once, a failing one logged and never raised; left untaken, run at teardown."""

from __future__ import annotations

import logging

import pytest
from flask import Flask

from services.web import requestctx


@pytest.fixture
def app() -> Flask:
    app = Flask(__name__)
    requestctx.install(app)
    done: list[str] = []
    app.config["DONE"] = done

    @app.get("/handed")
    def handed():
        requestctx.after_sending(lambda: done.append("first"))
        requestctx.after_sending(lambda: 1 / 0)
        requestctx.after_sending(lambda: done.append("after a failure"))
        resp = app.make_response("answer")
        requestctx.hand_over(resp, requestctx.current())
        return resp

    @app.get("/failed")
    def failed():
        requestctx.after_sending(lambda: done.append("still written"))
        raise RuntimeError("the view broke after deferring a write")

    return app


def test_deferred_writes_run_when_the_answer_is_closed_each_once(app, caplog):
    resp = app.test_client().get("/handed", buffered=False)
    assert resp.get_data(as_text=True) == "answer" and app.config["DONE"] == []  # sent, not yet written
    with caplog.at_level(logging.ERROR, logger=requestctx.__name__):
        resp.close()
    assert app.config["DONE"] == ["first", "after a failure"]
    assert "a write after the answer failed" in caplog.text
    resp.close()
    assert app.config["DONE"] == ["first", "after a failure"]


def test_writes_no_answer_took_run_at_teardown(app):
    app.testing = False
    resp = app.test_client().get("/failed")
    assert resp.status_code == 500 and app.config["DONE"] == ["still written"]
