"""Review scores as sources write them -> one :class:`ReviewScore` per criterion.

Sources give a criterion twice, each in several spellings: the reviewers' scores
(``"6;6;8"``, ``"6"``, ``6``, ``[6, 6, 8]``, OpenReview's ``"6: marginally above"``) and their mean (``6.67``, ``"6.67"``,
``[6.67, 0.94]`` as mean and deviation). Every review scale starts at 1, so ``0``,
``-1``, ``[0, 0]`` and blanks mean "no score" (a list ``"0;0;7"`` holds one score, 7,
and two reviews without one). A field whose items are not numbers at all
(``presentation = "Paper #29"`` is a session slot at some venues) is not a score. The
mean is taken from the scores when they are listed, so a placeholder 0 never drags it
down, and from the source's mean only when they are not.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from statistics import fmean

from services.search.records.model import ReviewScore

MAX_SCORE = 100.0  # no review scale goes this high: anything above is not a score
MAX_REVIEWS = 50   # scores kept per criterion
_SEPARATORS = re.compile(r";")
_SCORE_TEXT = re.compile(r"\s*(-?[0-9]+(?:\.[0-9]*)?)\s*(?::\s+\D.*)?", re.DOTALL)  # "6", "4.5", "6: good paper"


def score(value: object) -> float | None:
    """One score: a positive finite number up to :data:`MAX_SCORE`, or None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        match = _SCORE_TEXT.fullmatch(value)
        if not match:
            return None
        value = float(match.group(1))
    if isinstance(value, (int, float)) and math.isfinite(value) and 0 < value <= MAX_SCORE:
        return float(value)
    return None


def scores(value: object) -> list[float]:
    """Each reviewer's score; [] when none is given or the field is not a list of numbers."""
    if isinstance(value, str):
        items: list[object] = [item.strip() for item in _SEPARATORS.split(value)]
    elif isinstance(value, list):
        items = value
    elif isinstance(value, (int, float)):
        items = [value]
    else:
        return []
    items = [item for item in items if item not in ("", None)]
    if not all(_numeric(item) for item in items):
        return []  # not a score list (a session slot, a free-text field)
    return [s for s in (score(item) for item in items) if s is not None][:MAX_REVIEWS]


def mean(value: object) -> float | None:
    """A mean as the source writes it: a number, numeric text, or ``[mean, deviation]``."""
    if isinstance(value, list):
        value = value[0] if value else None
    return score(value)


def review_scores(criteria: Iterable[tuple[str, object, object]]) -> list[ReviewScore]:
    """The scored criteria among ``(criterion, scores, mean)`` as a source writes them, in their order."""
    out = []
    for criterion, listed, given_mean in criteria:
        given = scores(listed)
        average = round(fmean(given), 4) if given else mean(given_mean)
        if average is not None:
            out.append(ReviewScore(criterion=criterion, mean=average, scores=given))
    return out


def _numeric(item: object) -> bool:
    if isinstance(item, str):
        return bool(_SCORE_TEXT.fullmatch(item))
    return isinstance(item, (int, float)) and not isinstance(item, bool)
