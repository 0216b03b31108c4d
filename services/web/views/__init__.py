"""The views: Flask blueprints only, mounted from one list (aleph's habit).

A view reads its input through :mod:`.inputs`, asks the search layer through
``extensions.reads()``, renders with :mod:`services.web.render` and declares its HTTP
policy (:func:`services.web.policy.policy`). Views never import each other (an
import-linter contract in pyproject.toml, run by the tests); a helper two views need goes
in ``inputs.py``, ``render/`` or ``urls.py``.
"""

from __future__ import annotations

from flask import Flask

from . import (admin, api, bibtex_tools, feeds, front_errors, like_text, lists, maps, ops, pages, people, sources, stats,
               trends, venue_tools)

BLUEPRINTS = (pages.bp, trends.bp, people.bp, lists.bp, venue_tools.bp, maps.bp, api.bp, stats.bp, like_text.bp, bibtex_tools.bp, feeds.bp,
              sources.bp, admin.bp, ops.bp, front_errors.bp)


def register(app: Flask) -> None:
    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
