"""Answers written by orjson say what Flask's own writer said (services/web/http/json_bodies.py)."""

from __future__ import annotations

import dataclasses
import datetime
import json

import pytest
from flask import Flask, jsonify

from services.web.http.json_bodies import JSONProvider


@pytest.fixture
def app() -> Flask:
    app = Flask(__name__)
    app.json = JSONProvider(app)
    return app


@dataclasses.dataclass
class Point:
    x: int


def test_an_answer_keeps_its_key_order_and_is_compact(app):
    with app.app_context():
        body = jsonify({"z": 1, "a": [1, 2], "m": None}).get_data(as_text=True)
    assert body == '{"z":1,"a":[1,2],"m":null}\n'


def test_text_is_utf8_and_reads_back_as_written(app):
    answer = {"author": "Bernhard Schölkopf", "title": "“Quoted” — ∞Bench", 7: "an int key"}
    with app.app_context():
        raw = jsonify(answer).get_data()
    assert "Schölkopf".encode() in raw
    assert json.loads(raw) == {"author": "Bernhard Schölkopf", "title": "“Quoted” — ∞Bench", "7": "an int key"}


def test_dates_and_dataclasses_are_written_as_flask_writes_them(app):
    when = datetime.datetime(2026, 12, 6, 9, 30, tzinfo=datetime.timezone.utc)
    with app.app_context():
        assert json.loads(app.json.dumps({"at": when, "p": Point(3)})) == {"at": "Sun, 06 Dec 2026 09:30:00 GMT",
                                                                             "p": {"x": 3}}


def test_what_orjson_cannot_write_goes_through_flasks_writer(app):
    with app.app_context():
        assert json.loads(app.json.dumps({"big": 2**70})) == {"big": 2**70}
        assert app.json.dumps({"q": "bad \udc80 byte"}) == '{"q": "bad \\udc80 byte"}'  # a lone surrogate (a 400's echo)
        assert app.json.dumps({"a": 1}, indent=2) == '{\n  "a": 1\n}'
        with pytest.raises(TypeError):
            app.json.dumps({"x": object()})
