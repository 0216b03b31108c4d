"""People (issue 45): a person's page and the API's answers about people.

``/people/<id>`` is one researcher, as the people pass decided them: their papers newest first (a page at a
time), their years, co-authors (each to their own page), venues, topics, affiliations, the spellings of their
name, their OpenReview and ORCID profiles, and an Atom feed of their papers to follow (``/people/<id>.atom``,
:mod:`.feeds`). An id that a merge retired answers 301 to the person who holds its papers now; one that a split
retired, a page listing the people who do; an unknown or malformed id, the site's 404 with a message. A name's
page (``/authors/<name>``, :mod:`.pages`) lists the people of the name, or goes to its one person.

``/api/v1/people/<id>`` and ``/api/v1/people?name=…`` answer the same as JSON: a retired id is a 200 naming its
successors in a field, never a redirect.
"""

from __future__ import annotations

from flask import Blueprint, jsonify, redirect, render_template, request

from .. import extensions
from ..policy import policy
from ..render import answers
from ..render import openapi as doc
from ..urls import person_path, query_url
from .inputs import author_name, person_or_404, person_page_size

bp = Blueprint("people", __name__)


@bp.get("/people/<person_id>")
@policy(edge=True, whole_answer=True)
def page(person_id: str):
    found = person_or_404(person_id)
    if found.successor and found.successor.change == "merged":
        # 301: a merge is for good; the successor's own page redirects again if it was retired since.
        return redirect(person_path(found.successor.successors[0]), 301)
    if found.successor:
        return render_template("person_split.html", page=found)
    if found.page > found.pages:  # past the last page: the last one, at its own address
        last = found.pages
        return redirect(query_url(request.path, [("page", str(last))] if last > 1 else []), 302)
    return render_template("person.html", page=found, person=found.person)


@bp.get("/api/v1/people/<person_id>")
@policy(edge=True, whole_answer=True, cors=True)
@doc.operation("getPerson", "A person and a page of their papers, newest first (a retired id: person null and its "
               "successors, never a redirect)", answer="PersonPapers", params=[doc.PERSON_ID, *doc.PERSON_PAGING],
               errors=[404])
def person(person_id: str):
    return jsonify(answers.person_json(person_or_404(person_id, size=person_page_size())))


@bp.get("/api/v1/people")
@policy(edge=True, whole_answer=True, cors=True)
@doc.operation("peopleNamed", "The people of a name, the most papers first (what /authors/<name> lists)",
               answer="PeopleNamed", params=[doc.AUTHOR_NAME])
def named():
    name = author_name()
    return jsonify(answers.people_named_json(name, extensions.reads().people_named(name)))
