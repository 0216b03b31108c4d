"""Security headers on every answer, HTML and JSON alike.

Scripts only from our own origin (no inline script, no ``on*=`` attributes); inline
*styles* are allowed because the year histogram sizes its bars with ``style="--h: …"``.
"""

from __future__ import annotations

from flask import Flask, Response

CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
])
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def register(app: Flask) -> None:
    @app.after_request
    def security_headers(resp: Response) -> Response:
        for name, value in HEADERS.items():
            resp.headers.setdefault(name, value)
        return resp
