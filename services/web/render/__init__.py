"""Rendering: pure functions from the search layer's answers to HTML fragments, JSON answers,
CSV/BibTeX/JSON exports, Atom feeds and SVG charts. No search calls and no request
parsing here: views (:mod:`services.web.views`) do both and pass the results in.
"""
