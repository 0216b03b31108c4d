"""Titles and abstracts as safe HTML: ``$\\tilde{O}(\\sqrt{T})$`` as MathML, ``*first*`` as emphasis.

Sources write LaTeX math, Markdown-ish emphasis and TeX escapes (``25\\%``). Everything
else is HTML-escaped: no markup from the source reaches the page. MathML is built by
``latex2mathml`` and then re-serialised through an allowlist of elements and
attributes, because the converter itself passes ``\\href`` targets, ``style`` and raw
``\\text{<img ...>}`` through. A formula that does not convert stays as escaped source.
"""

from __future__ import annotations

import html
import re
from functools import lru_cache
from xml.etree.ElementTree import Element

from latex2mathml.converter import convert_to_element
from markupsafe import Markup, escape

__all__ = ["MAX_FORMULA", "math_to_mathml", "render", "render_highlighted"]

MAX_FORMULA = 400  # longer "$...$" spans are more likely two prices than one formula
_MARK_OPEN, _MARK_CLOSE = "\ue000", "\ue001"  # stand-ins for <mark> while rendering highlights
_PRIVATE = re.compile("[\ue000\ue001]")
# Display and inline math; "$" opens only before a non-space and closes after one, not before a digit.
_MATH = re.compile(
    r"(?=[$\\])(?:\$\$(?P<dd>[^$]+?)\$\$"
    r"|(?<![\\$])\$(?P<d>[^\s$](?:[^$]*?[^\s\\$])?)\$(?![\d$])"
    r"|\\\((?P<p>.+?)\\\)"
    r"|\\\[(?P<b>.+?)\\\])",
    re.DOTALL,
)
_STRONG = re.compile(r"(?<![\w*])\*\*(?=\S)(?P<t>[^*\n]+?)(?<=\S)\*\*(?![\w*])")
_EM = re.compile(r"(?<![\w*\\])\*(?=[^\s*])(?P<t>[^*\n]+?)(?<=[^\s*\\])\*(?![\w*])")
_TEX_ESCAPE = re.compile(r"\\([%&_#$])")
_ALLOWED_TAGS = frozenset(
    "math mrow mi mn mo ms mtext mspace msub msup msubsup munder mover munderover mfrac msqrt mroot "
    "mstyle merror mpadded mphantom mfenced menclose mtable mtr mtd mlabeledtr semantics annotation".split()
)
_ALLOWED_ATTRS = frozenset(
    "display mathvariant stretchy fence separator largeop movablelimits accent accentunder columnalign "
    "columnspacing rowspacing columnlines rowlines frame displaystyle scriptlevel linebreak width height "
    "depth lspace rspace minsize maxsize symmetric form notation linethickness open close separators".split()
)
_SAFE_VALUE = re.compile(r"^[\w.%+\- ]{0,40}$")


def render(text: str) -> Markup:
    """Safe HTML of a title or abstract: math as MathML, emphasis, TeX escapes; the rest escaped."""
    return Markup(_render(_PRIVATE.sub("", text or "")))


def render_highlighted(fragment: str) -> Markup:
    """The same for an Elasticsearch highlight (html encoder: escaped text with ``<mark>`` tags).

    ``<mark>`` survives; a formula is rendered only when no highlight tag cuts through it.
    Anything else that looks like a tag is shown as text, never passed through.
    """
    fragment = _PRIVATE.sub("", fragment or "")
    text = html.unescape(fragment.replace("<mark>", _MARK_OPEN).replace("</mark>", _MARK_CLOSE))
    out = _render(text)
    return Markup(out.replace(_MARK_OPEN, "<mark>").replace(_MARK_CLOSE, "</mark>"))


def _render(text: str) -> str:
    if "$" not in text and "\\(" not in text and "\\[" not in text:
        return _inline(text)
    out: list[str] = []
    last = 0
    for match in _MATH.finditer(text):
        source = next(g for g in match.groups() if g is not None)
        if len(source) > MAX_FORMULA or _MARK_OPEN in source or _MARK_CLOSE in source:
            continue
        mathml = math_to_mathml(source, block=match.group("dd") is not None or match.group("b") is not None)
        if mathml is None:
            continue
        out.append(_inline(text[last:match.start()]))
        out.append(mathml)
        last = match.end()
    out.append(_inline(text[last:]))
    return "".join(out)


def _inline(text: str) -> str:
    """Escape, then emphasis and TeX escapes; an emphasis span never crosses a highlight tag."""
    escaped = str(escape(text))
    if "*" in escaped:
        escaped = _STRONG.sub(lambda m: _wrap("strong", m), escaped)
        escaped = _EM.sub(lambda m: _wrap("em", m), escaped)
    if "\\" in escaped:
        escaped = _TEX_ESCAPE.sub(r"\1", escaped.replace("\\&amp;", "&amp;"))
    return escaped


def _wrap(tag: str, match: re.Match) -> str:
    inner = match.group("t")
    if _MARK_OPEN in inner or _MARK_CLOSE in inner:
        return match.group(0)
    return f"<{tag}>{inner}</{tag}>"


@lru_cache(maxsize=8192)
def math_to_mathml(source: str, block: bool = False) -> str | None:
    """Sanitised MathML of one LaTeX formula, or None when it does not convert. Cached: formulas repeat."""
    try:
        root = convert_to_element(source, display="block" if block else "inline")
    except Exception:  # the converter raises many kinds of errors on malformed input
        return None
    if not _has_content(root):
        return None
    alt = str(escape(source))
    return f'<math xmlns="http://www.w3.org/1998/Math/MathML" display="{"block" if block else "inline"}" ' \
           f'alttext="{alt}">' + "".join(_serialise(child) for child in root) + "</math>"


def _has_content(root: Element) -> bool:
    return any((el.text or "").strip() for el in root.iter()) or any(el.tag == "msqrt" for el in root.iter())


def _serialise(element: Element) -> str:
    """Allowlisted elements and attributes only; text decoded once then escaped."""
    tag = element.tag if element.tag in _ALLOWED_TAGS else "mrow"
    attrs = "".join(
        f' {name}="{escape(value)}"'
        for name, value in sorted(element.attrib.items())
        if name in _ALLOWED_ATTRS and _SAFE_VALUE.match(value)
    )
    text = str(escape(html.unescape(element.text))) if element.text else ""
    children = "".join(_serialise(child) + (str(escape(html.unescape(child.tail))) if child.tail else "")
                       for child in element)
    return f"<{tag}{attrs}>{text}{children}</{tag}>"
