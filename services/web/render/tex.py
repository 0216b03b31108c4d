"""Text as TeX for BibTeX fields: specials escaped, a title's math kept, its capitals protected.

Titles carry TeX (``$\\beta$-DPO``, ``$\\ell_1$``, ``\\textit{et al.}``). dblp keeps it, and
so does :func:`title`: a math segment stays as written when it is safe, braced so that no
style changes its case; an allowed text command (``\\emph{...}``) stays around its escaped
argument; a word with a capital after its first letter (``DPO``, ``ImageNet``, ``3D``) is
braced, so styles that lower-case titles keep it. Everything else is escaped.

Safe means TeX can only typeset it: every command in a math segment is one of
:data:`MATH_COMMANDS` (no ``\\input``, ``\\write``, ``\\def``, ...), its braces balance, and it
holds no ``%`` (a comment), ``#`` or ``&``. A segment that is not safe is escaped as text,
and so is a ``$`` without its pair ("No $$$"). No value can leave its field: unescaped
braces of the output always balance.
"""

from __future__ import annotations

import re
import unicodedata

_SPACE = re.compile(r"\s+")
SPECIAL = str.maketrans({
    "{": r"\textbraceleft{}", "}": r"\textbraceright{}", "\\": r"\textbackslash{}",
    "&": r"\&", "%": r"\%", "#": r"\#", "_": r"\_", "$": r"\$",
    "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
})
MATH_COMMANDS = frozenset("""
alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi pi varpi
rho varrho sigma varsigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Pi Sigma
Upsilon Phi Psi Omega ell infty partial nabla hbar imath jmath aleph emptyset varnothing oslash
sqrt frac tfrac dfrac binom mathcal mathbb mathbf mathrm mathit mathsf mathtt mathfrak boldsymbol bm
text textrm textbf textit operatorname times cdot cdots ldots dots vdots ddots pm mp div ast star circ
bullet leq geq le ge neq ne approx sim simeq cong equiv propto ll gg to rightarrow leftarrow
Rightarrow Leftarrow leftrightarrow Leftrightarrow longrightarrow mapsto nrightarrow uparrow downarrow
in notin ni subset subseteq supset supseteq cup cap setminus oplus otimes odot wedge vee neg forall
exists top bot perp parallel mid vert lvert rvert Vert langle rangle lfloor rfloor lceil rceil
log ln exp max min arg argmax argmin sup inf lim sum prod int oint det dim ker tilde hat bar vec dot
ddot widetilde widehat overline underline overrightarrow left right big Big bigg Bigg natural sharp
flat clubsuit diamondsuit heartsuit spadesuit diamond square triangle dagger prime Re Im wp colon quad
qquad
""".split())
TEXT_COMMANDS = frozenset(("emph", "textit", "textbf", "texttt", "textrm", "textsc", "textsf", "underline"))
_MATH_ESCAPES = frozenset(",;:! {}_|$")  # "\," and friends: spacing and escaped characters in math
_MATH = re.compile(r"\$([^$]+)\$|\\\((.+?)\\\)")
_COMMAND = re.compile(r"\\([A-Za-z]+|.)")
_TEXT_COMMAND = re.compile(r"\\(" + "|".join(sorted(TEXT_COMMANDS)) + r")\{([^{}\\$]*)\}")
_TEXT_ESCAPE = re.compile(r"\\([&%#_$])")  # "R\&D" in a source title is "R&D"
_ACCENT = re.compile(r"\\([\"'`^~=.])\{?([A-Za-z])\}?")
_ACCENTS = {'"': "\u0308", "'": "\u0301", "`": "\u0300", "^": "\u0302", "~": "\u0303", "=": "\u0304", ".": "\u0307"}
_DOLLAR = "\uf8ff"  # stands for an escaped "\$" while math is found (a private-use character)


def escape(text: str) -> str:
    """Text safe inside a braced BibTeX field and when TeX typesets it (whitespace collapsed)."""
    return _SPACE.sub(" ", text).strip().translate(SPECIAL)


def title(text: str) -> str:
    """A title as TeX (see the module docstring): math and allowed commands kept, capitals protected."""
    text = _SPACE.sub(" ", text).strip().replace("\\$", _DOLLAR)
    text = _ACCENT.sub(lambda m: unicodedata.normalize("NFC", m.group(2) + _ACCENTS[m.group(1)]), text)
    out, end = [], 0
    for match in _MATH.finditer(text):
        math = match.group(0)
        if not safe_math(match.group(1) or match.group(2)):
            continue  # left in the text around it, and escaped there
        out.append(_text(text[end:match.start()]))
        out.append("{" + math + "}")
        end = match.end()
    out.append(_text(text[end:]))
    return "".join(out).replace(_DOLLAR, r"\$")


def safe_math(math: str) -> bool:
    """Whether a math segment's TeX can only typeset (commands allowed, braces balanced, no ``%#&``)."""
    depth = 0
    for match in re.finditer(r"\\.|[{}%#&]", math):
        token = match.group(0)
        if token in "%#&":
            return False
        depth += {"{": 1, "}": -1}.get(token, 0)
        if depth < 0:
            return False
    if depth:
        return False
    return all(name in MATH_COMMANDS or name in _MATH_ESCAPES for name in _COMMAND.findall(math))


def _text(text: str) -> str:
    """Text outside math: allowed commands kept around their escaped, protected argument."""
    out, end = [], 0
    for match in _TEXT_COMMAND.finditer(text):
        out.append(_words(text[end:match.start()]))
        out.append(f"\\{match.group(1)}{{{_words(match.group(2))}}}")
        end = match.end()
    out.append(_words(text[end:]))
    return "".join(out)


def _words(text: str) -> str:
    """Escaped text, each word with a capital after its first letter braced."""
    text = _TEXT_ESCAPE.sub(r"\1", text)
    return "".join(_protect(part) if part.strip() else part for part in re.split(r"(\s+)", text))


def _protect(word: str) -> str:
    escaped = word.translate(SPECIAL)
    letters = [ch for ch in word if ch.isalnum()]
    return "{" + escaped + "}" if any(ch.isupper() for ch in letters[1:]) else escaped
