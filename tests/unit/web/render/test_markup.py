"""Math and light markup in titles and abstracts, rendered to safe HTML; examples from the corpus."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from markupsafe import Markup

from services.web.render.markup import math_to_mathml, render, render_highlighted

REGRET = "Thompson Sampling Achieves $\\tilde{O}(\\sqrt{T})$ Regret in Linear Quadratic Control"
_MATHML_TAGS = {"math", "mrow", "mi", "mn", "mo", "mtext", "msub", "msup", "msubsup", "mover", "munder",
                "munderover", "mfrac", "msqrt", "mroot", "mstyle", "mspace", "mtable", "mtr", "mtd"}
_ATTRS = {"xmlns", "display", "alttext", "mathvariant", "stretchy", "fence", "separator", "largeop", "movablelimits",
          "accent", "accentunder", "columnalign", "displaystyle", "scriptlevel", "linebreak", "width", "form",
          "lspace", "rspace", "minsize", "maxsize", "symmetric", "notation"}


class _Collector(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, attrs))


def parsed(html: str) -> list[tuple[str, list[tuple[str, str | None]]]]:
    """Elements as a browser's HTML tokenizer sees them."""
    collector = _Collector()
    collector.feed(html)
    collector.close()
    return collector.elements


def assert_safe(html: str) -> None:
    """Only our own elements; attributes only from the MathML allowlist (no on*, href, src, style)."""
    for tag, attrs in parsed(html):
        assert tag in _MATHML_TAGS | {"em", "strong", "mark"}, tag
        for name, _ in attrs:
            assert name in _ATTRS, (tag, name)


def test_inline_math_becomes_mathml():
    out = render(REGRET)
    assert isinstance(out, Markup)
    assert out.startswith("Thompson Sampling Achieves <math ")
    assert "<msqrt>" in out and "<mi>T</mi>" in out and out.endswith("</math> Regret in Linear Quadratic Control")
    assert "$" not in out.replace('alttext="', "")  # the delimiters are gone from the visible text


@pytest.mark.parametrize("title", [
    "$\\alpha$-MDF: An Attention-based Multimodal Differentiable Filter for Robot State Estimation",
    "$p$-Laplacian Based Graph Neural Networks",
    "$\\textit{NeuroPath}$: A Neural Pathway Transformer for Joining the Dots of Human Connectomes",
    "Breaking the $1/\\sqrt{n}$ Barrier: Faster Rates for Permutation-based Models in Polynomial Time",
    "GSM-$\\infty$: How Do your LLMs Behave over Infinitely Increasing Reasoning Complexity and Context Length?",
    "Efficient Predictive Counterfactual Regret Minimization$^+$ Algorithm in Solving Extensive-Form Games",
    "$\\ell_1$ Latent Distance based Continuous-time Graph Representation",
])
def test_corpus_titles_with_math_render_to_mathml(title):
    out = render(title)
    assert out.count("<math ") == title.count("$") // 2
    assert_safe(out)


def test_paren_and_display_delimiters():
    assert "<math " in render("a bound \\(O(n \\log n)\\) holds")
    assert 'display="block"' in render("$$\\sum_i x_i$$")


def test_dollar_amounts_are_not_math():
    assert render("costs $5 and $10 each") == "costs $5 and $10 each"
    assert render("price $ 5 $") == "price $ 5 $"


def test_a_formula_that_does_not_convert_stays_as_escaped_source():
    assert math_to_mathml("\\frac{a}{") is None
    assert render("bad $\\frac{a}{$ <b>") == "bad $\\frac{a}{$ &lt;b&gt;"


def test_emphasis_strong_and_tex_escapes():
    # From corpus abstracts: "supports various ways of 3D editing (*e.g.*, stylization" and "25\%".
    assert render("3D editing (*e.g.*, stylization") == "3D editing (<em>e.g.</em>, stylization"
    assert render("which *implicitly* encodes") == "which <em>implicitly</em> encodes"
    assert render("a **strong** claim") == "a <strong>strong</strong> claim"
    assert render("improves by 25\\% and R\\&D on snake\\_case") == "improves by 25% and R&amp;D on snake_case"


def test_asterisks_that_are_not_emphasis_stay():
    assert render("a*b*c and 2 * 3 * 4") == "a*b*c and 2 * 3 * 4"
    assert render("Keyulu Xu*") == "Keyulu Xu*"


@pytest.mark.parametrize("attack", [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "$<script>alert(1)</script>$",
    "$\\text{<img src=x onerror=alert(1)>}$",
    "$\\href{javascript:alert(1)}{x}$",
    "$\\style{background:url(javascript:alert(1))}{x}$",
    "$\\color{red\" onclick=\"alert(1)}{x}$",
    "$\\class{x\" onmouseover=\"alert(1)}{y}$",
    "*<script>alert(1)</script>*",
    "**<img src=x onerror=alert(1)>**",
    "<a href=\"javascript:alert(1)\">x</a>",
    "\\(<svg onload=alert(1)>\\)",
    "$$<iframe src=javascript:alert(1)>$$",
    "&lt;script&gt;alert(1)&lt;/script&gt;",
    "\ue000script\ue001",
])
def test_no_raw_html_from_the_source_gets_through(attack):
    assert_safe(render(attack))
    assert_safe(render_highlighted(attack))


def test_escaped_source_entities_stay_visible_text():
    assert render("&lt;b&gt;") == "&amp;lt;b&amp;gt;"
    # Corpus title: "SqueezeNet: ... and <0.5MB model size".
    assert render("50x fewer parameters and <0.5MB model size") == "50x fewer parameters and &lt;0.5MB model size"


def test_highlighted_text_keeps_marks_and_renders_intact_math():
    fragment = "Achieves $\\tilde{O}(\\sqrt{T})$ <mark>Regret</mark> in &lt;Linear&gt; Control"
    out = render_highlighted(fragment)
    assert "<mark>Regret</mark>" in out and "<msqrt>" in out and "&lt;Linear&gt;" in out
    assert_safe(out)


def test_highlighted_math_cut_by_a_mark_stays_source():
    out = render_highlighted("Achieves $\\tilde{<mark>O</mark>}(\\sqrt{T})$ regret")
    assert "<math" not in out
    assert out == "Achieves $\\tilde{<mark>O</mark>}(\\sqrt{T})$ regret"


def test_highlighted_emphasis_never_crosses_a_mark():
    out = render_highlighted("a *big <mark>deal</mark>* and *small*")
    assert "<em>small</em>" in out and "<em>big" not in out


def test_highlighted_escaped_mark_text_stays_text():
    assert render_highlighted("&lt;mark&gt;x") == "&lt;mark&gt;x"


def test_highlighted_other_tags_are_text():
    out = render_highlighted("<mark>x</mark><script>alert(1)</script>")
    assert out == "<mark>x</mark>&lt;script&gt;alert(1)&lt;/script&gt;"
