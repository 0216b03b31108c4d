"""Absolute URLs from ``PAPERLIST_PUBLIC_URL``, never from the request's ``Host`` header.

A forged ``Host`` must not reach answers that caches and exports keep.
"""

from __future__ import annotations

from flask import current_app, url_for


def absolute_url(endpoint: str, **values: object) -> str:
    return current_app.config["SETTINGS"].public_url + url_for(endpoint, **values)
