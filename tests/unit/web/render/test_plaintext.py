"""Titles as plain text for the tab title and descriptions: math as Unicode, markup dropped, nothing escaped."""

from __future__ import annotations

import pytest
from markupsafe import Markup

from services.web.render.plaintext import plain_text

REGRET = "Thompson Sampling Achieves $\\tilde{O}(\\sqrt{T})$ Regret in Linear Quadratic Control"


@pytest.mark.parametrize(("source", "text"), [
    (REGRET, "Thompson Sampling Achieves Õ(√T) Regret in Linear Quadratic Control"),
    ("Breaking the $1/\\sqrt{n}$ Barrier", "Breaking the 1/√n Barrier"),
    ("GSM-$\\infty$: How Do your LLMs Behave", "GSM-∞: How Do your LLMs Behave"),
    ("$\\alpha$-MDF: An Attention-based Filter", "α-MDF: An Attention-based Filter"),
    ("$\\textit{NeuroPath}$: A Neural Pathway Transformer", "NeuroPath: A Neural Pathway Transformer"),
    ("Regret Minimization$^+$ Algorithm", "Regret Minimization⁺ Algorithm"),
    ("$\\ell_1$ Latent Distance", "ℓ₁ Latent Distance"),
    ("$\\mathcal{O}(n^2 \\log n)$ time", "O(n² log n) time"),
    ("$\\frac{1}{2}$-approximation", "1/2-approximation"),
    ("on $\\mathbb{R}^d$", "on ℝ^d"),
    ("improves 25\\% with *implicit* models", "improves 25% with implicit models"),
    ("", ""),
])
def test_plain_text_for_the_tab_title(source, text):
    assert plain_text(source) == text


def test_plain_text_is_not_html_and_does_not_pretend_to_be():
    assert not isinstance(plain_text("<b>x</b>"), Markup)
    assert plain_text("<b>x</b>") == "<b>x</b>"  # the template's autoescape makes it safe
