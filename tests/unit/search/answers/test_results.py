"""A hit's title marks the names the query means it by (services/search/answers/results.py)."""

from __future__ import annotations

import pytest

from services.search.answers.results import marked_names
from services.search.query.query_language import parse
from services.search.query.reading import read
from services.search.records.model import Paper

FASTER = "Faster R-CNN: Towards Real-Time Object"
VQVAE = "A & B: VQ-VAE Models"


@pytest.mark.parametrize("q, title, html, marked", [
    # Elasticsearch marked "Faster" of "faster rcnn": the title holds no word "rcnn", the name is marked whole.
    ("faster rcnn", FASTER, "<mark>Faster</mark> R-CNN: Towards Real-Time Object",
     "<mark>Faster R-CNN</mark>: Towards Real-Time Object"),
    # Nothing marked (the title was not highlighted): its name is, the rest escaped as Elasticsearch would.
    ("vqvae", VQVAE, "", "A &amp; B: <mark>VQ-VAE</mark> Models"),
    # A name the query does not mean leaves the highlight as it was; an excluded word names nothing.
    ("real-time object", FASTER, "Faster R-CNN: <mark>Towards</mark>", "Faster R-CNN: <mark>Towards</mark>"),
    ("models -vqvae", VQVAE, "", ""),
])
def test_the_names_the_query_means_are_marked_whole(q, title, html, marked):
    paper = Paper(paper_id="p", conference="neurips", conference_name="NeurIPS", year=2015, title=title,
                  names=["Faster R-CNN", "VQ-VAE"])
    assert marked_names(html, paper, read(parse(q)).naming_keys) == marked
