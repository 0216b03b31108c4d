"""The site's own page for an error the front raised before a request reached the app.

nginx answers a request it would not read itself (400: a malformed address; 414, 413, 431: too
long or too large for its buffers, deploy/nginx/paperlist.conf.template); off the API it asks this
view for the page
(``error_page`` to ``/_front/errors/<status>``, a GET of its own), so the visitor sees the
site, the way to "Papers like mine" when what they sent was a long text, and not nginx's
bare page. On the API nginx answers the contract's JSON itself.
"""

from __future__ import annotations

from flask import Blueprint, abort

from services.search.limits import MAX_QUERY

from ..errors import error_response
from ..policy import policy

bp = Blueprint("front_errors", __name__)

MESSAGES = {
    400: "This address is malformed: a % not followed by two hexadecimal digits, or a path above the site's root.",
    413: "What was sent is larger than the site reads.",
    414: f"This address is longer than the site reads. A search reads at most {MAX_QUERY} characters.",
    431: "The request's headers (its cookies, most likely) are larger than the site reads.",
}
OFFERS_SIMILAR = (413, 414)  # what was too long was most likely a pasted text
HEADINGS = {400: "That address did not work"}  # not a search's parameter, as the page's own 400s are


@bp.get("/_front/errors/<int:status>")
@policy(max_age=None)
def page(status: int):
    if status not in MESSAGES:
        abort(404)
    return error_response(status, MESSAGES[status], as_json=False,
                          page={"offer_similar": status in OFFERS_SIMILAR, "heading": HEADINGS.get(status)})
