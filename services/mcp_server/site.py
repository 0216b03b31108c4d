"""The site the tools link to and answer for: its URLs and the API's answers, built where the web builds them.

A tool's paper or person carries its page's address on the site (``PAPERLIST_PUBLIC_URL`` and the web's own
route: :mod:`services.web.urls`), and the tools that answer what an API route answers (a paper, a venue-year,
a person, a name's people) return that route's answer (:mod:`services.web.render.answers`, through its
pydantic models). Both need a Flask application context: :class:`Site` is a bare Flask app holding the
web's URL map (its blueprints) and the settings, nothing else (no extensions, caches or hooks: it serves no
request), and :meth:`Site.context` is one tool call's context.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask

from services.settings import Settings
from services.web import views


class Site:
    """The web's URL map and the settings, for building its URLs and answers outside a web request."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.app = Flask("paperlist-mcp")
        self.app.config["SETTINGS"] = settings
        views.register(self.app)

    @contextmanager
    def context(self) -> Iterator[None]:
        """One call's context: ``url_for`` and ``public_url`` answer as in a request to the site's root."""
        with self.app.test_request_context("/"):
            yield
