"""The BibTeX upgrade (issue 48): ``POST /api/v1/bibtex/upgrade`` and the ``/tools/bibtex`` page (a form).

Both take a .bib (the API as its body, ``text/x-bibtex`` or ``text/plain``; the page pasted or uploaded) and
answer each entry's outcome and the upgraded file (:func:`services.web.render.bibtex_upgrade.upgrade`): the API
as JSON, or the file itself with ``Accept: text/x-bibtex`` or ``?format=bibtex``; the page as counts, a table,
each changed entry before and after, and the new file to download. Nothing is stored.

A .bib may be far larger than the site's other bodies (64 KB): these two routes read up to
:data:`~services.search.limits.MAX_BIBTEX_BODY` bytes (nginx's ``client_max_body_size`` of their location is the
same), and a larger body is a 413 from the one error boundary. Their reads share the longer
``Budget.BATCH`` (a 2,000-entry file is a few msearch calls, not one search).
"""

from __future__ import annotations

import base64

from flask import Blueprint, Response, abort, jsonify, render_template, request
from werkzeug.exceptions import RequestEntityTooLarge

from services.search.limits import MAX_BIBTEX_BODY, MAX_BIBTEX_BYTES, MAX_BIBTEX_ENTRIES

from .. import extensions
from ..policy import Budget, Cost, policy
from ..render import openapi as doc
from ..render.bib_reading import BibInputError, decode_text
from ..render.bibtex_schemas import upgrade_json
from ..render.bibtex_upgrade import OUTCOME_LABELS, OUTCOMES, UpgradeReport, keep_fields, upgrade, venue_label

bp = Blueprint("bibtex_tools", __name__)
BIBTEX_TYPE = "text/x-bibtex"
TEXT_TYPES = (BIBTEX_TYPE, "application/x-bibtex", "text/plain")
DOWNLOAD_NAME = "upgraded.bib"


@bp.post("/api/v1/bibtex/upgrade")
@policy(max_age=None, cors=True, cost=Cost.EXPORT, budget=Budget.BATCH)
@doc.operation("upgradeBibtex", "Replace a .bib's preprint entries (arXiv, CoRR) by the venue entries of their papers",
               answer={"application/json": doc.json_of("BibtexUpgrade"), BIBTEX_TYPE: doc.TEXT},
               params=[doc.KEEP_PARAM, doc.format_param(("json", "bibtex"))],
               body_types={t: {"schema": doc.BIB_SCHEMA} for t in (BIBTEX_TYPE, "text/plain")}, errors=[413, 415])
def api():
    request.max_content_length = MAX_BIBTEX_BODY
    options = keep_fields(request.args.get("keep"))
    as_file = _wants_file()
    if request.mimetype not in TEXT_TYPES:
        abort(415, description=f"Send the .bib as the body, with Content-Type {BIBTEX_TYPE} or text/plain.")
    try:
        report = upgrade(decode_text(_body(), request.mimetype_params.get("charset")), extensions.reads(), options)
    except BibInputError as exc:
        abort(exc.status, description=exc.message)
    if as_file:
        return _download(report)
    return jsonify(upgrade_json(report))


@bp.route("/tools/bibtex", methods=["GET", "POST"])
@policy(max_age=None, cost=Cost.EXPORT, budget=Budget.BATCH)
def page():
    """The form; a submit shows each entry's outcome under it (``format=bibtex``: the file as a download)."""
    request.max_content_length = MAX_BIBTEX_BODY
    request.max_form_memory_size = MAX_BIBTEX_BODY
    if request.method == "POST":
        _body(form=True)
    keep = request.form.get("keep", "note, url") if request.method == "POST" else "note, url"
    text, report, error, status = "", None, None, 200
    if request.method == "POST":
        upload = request.files.get("file")
        data = upload.read(MAX_BIBTEX_BYTES + 1) if upload and upload.filename else None
        text = request.form.get("bibtex", "")
        try:
            if data is not None:
                text = decode_text(data)
            elif not text.strip():
                raise BibInputError("Paste a .bib or choose a file.")
            report = upgrade(text, extensions.reads(), keep_fields(keep))
        except BibInputError as exc:  # shown beside the form
            error, status = exc.message, exc.status
        if report is not None and request.form.get("format") == "bibtex":
            return _download(report)
    shown = text if len(text.encode()) <= MAX_BIBTEX_BYTES else ""
    return render_template("bibtex.html", text=shown, keep=keep, report=report, error=error,
                           labels=OUTCOME_LABELS, outcomes=OUTCOMES, venue_label=venue_label, download=_data_url(report) if report else None,
                           download_name=DOWNLOAD_NAME, max_bytes=MAX_BIBTEX_BYTES,
                           max_entries=MAX_BIBTEX_ENTRIES), status


def _body(*, form: bool = False) -> bytes:
    """The request's body (or its form, parsed), or a 413 that names the limit."""
    try:
        return b"" if form and request.form is not None else request.get_data(cache=False)
    except RequestEntityTooLarge:
        abort(413, description=f"The request is over the limit of {MAX_BIBTEX_BODY:,} bytes "
                               f"(a .bib of at most {MAX_BIBTEX_BYTES:,} bytes).")


def _wants_file() -> bool:
    chosen = request.args.get("format", "")
    if chosen not in ("", "json", "bibtex"):
        abort(400, description="format is json or bibtex")
    if chosen:
        return chosen == "bibtex"
    best = request.accept_mimetypes.best_match(["application/json", BIBTEX_TYPE], default="application/json")
    return best == BIBTEX_TYPE


def _download(report: UpgradeReport) -> Response:
    return Response(report.bibtex, mimetype=BIBTEX_TYPE,
                    headers={"Content-Disposition": f'attachment; filename="{DOWNLOAD_NAME}"'})


def _data_url(report: UpgradeReport) -> str:
    """The new file as a link the page's download button saves (nothing is kept on the server to fetch later)."""
    return f"data:{BIBTEX_TYPE};charset=utf-8;base64," + base64.b64encode(report.bibtex.encode()).decode()
