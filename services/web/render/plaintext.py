"""Readable plain text of a title with LaTeX, for the browser tab and other text-only places.

``$\\tilde{O}(\\sqrt{T})$ Regret`` reads ``Õ(√T) Regret``. Only common commands are
spelled out; an unknown ``\\command`` loses its backslash, braces go, nothing fails.

Why not pylatexenc's ``latex2text``: it agrees with 5 of the 11 titles of
tests/unit/web/render/test_markup.py; it keeps ``^2`` and ``_1`` as they are (no ²,
₁), writes ``√(T)`` for ``\\sqrt{T}``, turns ``\\mathcal{O}`` into 𝒪 and leaves
``*emphasis*`` marks in, so it would need most of this module around it anyway.
"""

from __future__ import annotations

import re
import unicodedata

_SYMBOLS = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε", "zeta": "ζ",
    "eta": "η", "theta": "θ", "vartheta": "ϑ", "iota": "ι", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν",
    "xi": "ξ", "pi": "π", "rho": "ρ", "sigma": "σ", "tau": "τ", "upsilon": "υ", "phi": "φ", "varphi": "φ",
    "chi": "χ", "psi": "ψ", "omega": "ω", "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ", "Xi": "Ξ",
    "Pi": "Π", "Sigma": "Σ", "Phi": "Φ", "Psi": "Ψ", "Omega": "Ω", "ell": "ℓ", "infty": "∞", "nabla": "∇",
    "partial": "∂", "sum": "Σ", "prod": "Π", "int": "∫", "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥",
    "neq": "≠", "ne": "≠", "approx": "≈", "sim": "∼", "simeq": "≃", "equiv": "≡", "propto": "∝", "times": "×",
    "cdot": "·", "cdots": "⋯", "ldots": "…", "dots": "…", "pm": "±", "mp": "∓", "in": "∈", "notin": "∉",
    "subset": "⊂", "subseteq": "⊆", "cup": "∪", "cap": "∩", "to": "→", "rightarrow": "→", "leftarrow": "←",
    "Rightarrow": "⇒", "mapsto": "↦", "forall": "∀", "exists": "∃", "emptyset": "∅", "star": "⋆", "ast": "∗",
    "log": "log", "ln": "ln", "exp": "exp", "min": "min", "max": "max", "sup": "sup", "inf": "inf",
    "lim": "lim", "det": "det", "sin": "sin", "cos": "cos", "tanh": "tanh", "poly": "poly", "polylog": "polylog",
    "langle": "⟨", "rangle": "⟩", "lfloor": "⌊", "rfloor": "⌋", "lceil": "⌈", "rceil": "⌉", "vert": "|",
    "mid": "|", "|": "‖", "{": "{", "}": "}", "%": "%", "&": "&", "_": "_", "#": "#", "$": "$", ",": " ",
    ";": " ", ":": " ", "!": "", " ": " ", "quad": " ", "qquad": " ", "left": "", "right": "", "big": "",
    "Big": "", "bigg": "", "Bigg": "", "displaystyle": "", "textstyle": "", "limits": "", "nolimits": "",
    "frac": "", "sqrt": "√", "href": "", "url": "", "label": "", "color": "", "style": "", "class": "",
}
_ACCENTS = {"tilde": "\u0303", "widetilde": "\u0303", "hat": "\u0302", "widehat": "\u0302", "bar": "\u0304",
            "overline": "\u0305", "dot": "\u0307", "ddot": "\u0308", "vec": "\u20d7", "check": "\u030c"}
_BLACKBOARD = {"R": "ℝ", "N": "ℕ", "Z": "ℤ", "Q": "ℚ", "C": "ℂ", "E": "𝔼", "P": "ℙ"}
_SUPER = str.maketrans("0123456789+-=()niT*", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱᵀ*")
_SUB = str.maketrans("0123456789+-=()", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎")
_GROUP = r"\{((?:[^{}]|\{[^{}]*\})*)\}"
_ACCENT = re.compile(rf"\\({'|'.join(_ACCENTS)})\s*(?:{_GROUP}|(\\?\w))")
_SQRT = re.compile(rf"\\sqrt\s*(?:\[[^\]]*\])?\s*(?:{_GROUP}|(\\?\w))")
_FRAC = re.compile(rf"\\[dt]?frac\s*{_GROUP}\s*{_GROUP}")
_MATHBB = re.compile(r"\\mathbb\s*\{?\s*([A-Z])\s*\}?")
_STYLE = re.compile(r"\\(?:math(?:cal|rm|bf|it|sf|tt|frak|scr)|text(?:rm|bf|it|tt|sf)?|operatorname|boldsymbol|bm|mbox)\s*")
_COMMAND = re.compile(r"\\([A-Za-z]+|[^A-Za-z\s])")
_SCRIPT = re.compile(r"([\^_])\s*(?:\{([^{}]*)\}|([^\s{}\\]))")
_MATH = re.compile(r"\$\$?|\\[()\[\]]")
_EMPHASIS = re.compile(r"(?<![\w*])\*{1,2}(?=\S)([^*\n]+?)(?<=\S)\*{1,2}(?![\w*])")
_SPACE = re.compile(r"\s+")


def plain_text(text: str) -> str:
    """Math and markup as readable plain text; the result is NOT HTML-safe (let the template escape it)."""
    if not text:
        return ""
    if "*" in text:
        text = _EMPHASIS.sub(r"\1", text)
    if "\\" in text or "$" in text or "^" in text:
        text = _MATH.sub("", text)
        for _ in range(3):  # nested \sqrt{\tilde{O}} etc.
            text = _FRAC.sub(lambda m: f"{_wrapped(m.group(1))}/{_wrapped(m.group(2))}", text)
            text = _SQRT.sub(lambda m: "√" + _wrapped(m.group(1) if m.group(1) is not None else m.group(2)), text)
            text = _ACCENT.sub(_accent, text)
        text = _MATHBB.sub(lambda m: _BLACKBOARD.get(m.group(1), m.group(1)), text)
        text = _STYLE.sub("", text)
        text = _COMMAND.sub(lambda m: _SYMBOLS.get(m.group(1), m.group(1)), text)
        text = _SCRIPT.sub(_script, text)
        text = text.replace("{", "").replace("}", "").replace("~", " ")
    return unicodedata.normalize("NFC", _SPACE.sub(" ", text)).strip()


def _wrapped(inner: str) -> str:
    """A fraction or root argument: one token stays bare, longer ones get parentheses."""
    inner = inner.strip()
    return inner if len(inner) <= 1 or re.fullmatch(r"\\?\w+", inner) else f"({inner})"


def _accent(match: re.Match) -> str:
    base = match.group(2) if match.group(2) is not None else match.group(3)
    base = base.strip()
    if len(base) == 1:
        return base + _ACCENTS[match.group(1)]
    return base


def _script(match: re.Match) -> str:
    body = match.group(2) if match.group(2) is not None else match.group(3)
    table = _SUPER if match.group(1) == "^" else _SUB
    converted = body.translate(table)
    if all(ch != orig or ch in "*" for ch, orig in zip(converted, body, strict=True)) and body:
        return converted
    return match.group(1) + (body if re.fullmatch(r"\w+", body) else f"({body})")
