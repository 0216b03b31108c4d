"""A seeded generator of hostile request values: query-language syntax, Unicode edge cases,
malformed numbers, forged cursors and oversized input.

Values are returned *already percent-encoded* (a str for the URL), so they can carry
what a str cannot: invalid UTF-8 and lone surrogates.
"""

from __future__ import annotations

import base64
import json
import random
from urllib.parse import quote

WORDS = ("learning", "diffusion", "neural", "graph", "transformer", "the", "a", "is", "attention",
         "reinforcement", "bayes", "hinton", "lecun", "nlp", "vision", "x", "ml", "gan", "bert", "ab")
FIELDS = ("title", "author", "abstract", "aff", "conference", "year", "topic", "status", "track",
          "keywords", "_id", "_source", "*", "title.exact", "", "tldr", "foo")
OPERATORS = ("OR", "AND", "NOT", "-", "+", "|", "||", "&&", "!", "or", "and", "not")
SPECIALS = '~^*?:\\/"()[]{}<>=!&|+-'
UNICODE = ("\u202e", "\u200f", "\u0645\u0631\u062d\u0628\u0627", "e\u0301\u0301\u0301", "\u0000",
           "\u200b", "\ufeff", "\U0001f600", "\U0001f469\u200d\U0001f52c", "\u00df", "\u0130",
           "\ufb01", "\u2028", "\u3000", "\uffff", "\u0301" * 50, "Z\u0351\u0352\u0353" * 20,
           "\u0661\u0662", "\uff11\uff12", "\U000e0041", "\u1e9e", "\x7f", "\x1e", "\x1f")
# Raw percent-encoded bytes that are not valid UTF-8 (lone surrogates, overlong, truncated).
BAD_BYTES = ("%ED%A0%80", "%ED%BF%BF", "%FF", "%FE%FF", "%C0%AF", "%E2%82", "%F4%90%80%80",
             "%80", "%C3", "%00", "%", "%G1", "%%", "%2", "%u202e")
NUMBERS = ("-1", "0", "1", "1_0", "\uff11", "\u0662\u0660\u0662\u0661", "1e9", "9" * 30, "2018-",
           "2018--2020", "2020-2018", " 2021 ", "NaN", "inf", "-0", "0x10", "1.5", "2021,2022",
           "1800", "3000", "2018-2022-2024", "2021\u20132022", "+5", "00001", "", " ", "\u00b2",
           "2147483648", "-9223372036854775809", "10000", "1000000")


class Hostile:
    """Seeded: the same seed generates the same requests."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choice(self, seq):
        return self.rng.choice(seq)

    # --- text (as str; encoded by :func:`encode`) -------------------------------------------
    def term(self) -> str:
        r = self.rng.random()
        word = self.choice(WORDS)
        if r < 0.15:
            return word + self.choice("*?~^") + self.choice(("", "2", "0.5", "-1", "abc", "99999"))
        if r < 0.25:
            return f'"{" ".join(self.choice(WORDS) for _ in range(self.rng.randint(0, 6)))}'
        if r < 0.35:
            return f"{self.choice(FIELDS)}:{self.term()}"
        if r < 0.42:
            return f"[{self.choice(NUMBERS)} TO {self.choice(NUMBERS)}{self.choice(']}')}"
        if r < 0.48:
            return f"/{self.choice(('.*', '[a-z]+', '(a|b)*c', '.{1,1000}', ''))}/"
        if r < 0.55:
            return "".join(self.choice(SPECIALS) for _ in range(self.rng.randint(1, 8)))
        if r < 0.62:
            return self.choice(UNICODE) + word
        if r < 0.70:
            return word[: self.rng.randint(1, 3)] + "*"
        return word

    def query(self) -> str:
        r = self.rng.random()
        if r < 0.08:  # many OR'd prefixes: the expensive query of issue 10
            return " OR ".join(f"{self.choice('abcdefghijklmnopqrstuvwxyz')}{self.choice('aeiou')}*"
                               for _ in range(self.rng.randint(16, 64)))
        if r < 0.12:
            return self.choice(WORDS) * self.rng.randint(50, 600)
        if r < 0.16:
            return " ".join([self.choice(WORDS)] * self.rng.randint(100, 400))
        if r < 0.20:
            return "(" * self.rng.randint(1, 300) + "a" + ")" * self.rng.randint(0, 300)
        if r < 0.24:
            return "".join(self.choice(UNICODE) for _ in range(self.rng.randint(1, 40)))
        parts = []
        for _ in range(self.rng.randint(1, 24)):
            if parts and self.rng.random() < 0.3:
                parts.append(self.choice(OPERATORS))
            parts.append(self.term())
        if self.rng.random() < 0.2:
            parts.insert(self.rng.randrange(len(parts) + 1), "(")
        return " ".join(parts)

    def cursor(self) -> str:
        r = self.rng.random()
        if r < 0.25:
            raw = self.rng.randbytes(self.rng.randint(0, 200))
        else:
            shapes = ([], [1], {"a": 1}, [None], [True, "x", 1.5], [1e308, -1e308], ["x"] * 1000,
                      [[[[1]]]], "string", 12, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [float("inf")] * 2,
                      [self.rng.randint(-2**70, 2**70), "id"], ["\u0000", "\ud800"], [{"$gt": 1}])
            shape = self.choice(shapes)
            if r > 0.9:
                depth = self.rng.randint(100, 5000)
                raw = ("[" * depth + "]" * depth).encode()
            else:
                raw = json.dumps(shape, allow_nan=True).encode("utf-8", "surrogatepass")
        token = base64.urlsafe_b64encode(raw).decode()
        return token.rstrip("=") if self.rng.random() < 0.5 else token

    def text(self) -> str:
        """Any hostile value, for any parameter."""
        r = self.rng.random()
        if r < 0.35:
            return self.query()
        if r < 0.55:
            return self.choice(NUMBERS)
        if r < 0.65:
            return self.cursor()
        if r < 0.72:
            return self.choice(("a", "\U0001f600", "\u202e", "%")) * self.rng.choice((257, 1000, 5000, 20000))
        if r < 0.85:
            return self.choice(("neurips", "ICLR", "icml", "accepted", "oral", "machine-learning",
                                "relevance", "newest", "oldest", "citations", "lexical", "semantic",
                                "hybrid", "bibtex", "csv", "json", "ris", "1", "true"))
        return self.term()

    # --- encoding ---------------------------------------------------------------------------
    def encoded(self, value: str | None = None) -> str:
        """Percent-encoded ``value`` (or a fresh one), sometimes spliced with invalid UTF-8."""
        out = encode(self.text() if value is None else value)
        if self.rng.random() < 0.12:
            at = self.rng.randint(0, len(out))
            while at and out[at - 1 : at] == "%" or (at >= 2 and out[at - 2] == "%"):
                at -= 1
            out = out[:at] + self.choice(BAD_BYTES) + out[at:]
        return out


def encode(value: str) -> str:
    """Percent-encode every byte outside the unreserved set; lone surrogates pass as their bytes."""
    return quote(value.encode("utf-8", "surrogatepass"), safe="")


# --- requests ---------------------------------------------------------------------------------
PARAMS = ("q", "conference", "kind", "year", "topic", "status", "track", "author", "sort", "page",
          "page_size", "search_after", "mode", "format", "partial", "text", "from_sources")
JUNK_PARAMS = ("", "Q", "q[]", "__proto__", "_source", "size", "from", "index", "\u202eq", "%00", "a" * 300)


def request_path(rule: str, arguments: list[str], gen: Hostile, real_ids: list[str]) -> str:
    """A path of the route ``rule`` (Werkzeug's syntax) with hostile values for its ``arguments``."""
    path = rule
    for name in arguments:
        r = gen.rng.random()
        if name == "year":
            value = gen.choice(("2021", "0", "99999999999999999999", "-1", "2021"))
        elif name in ("paper_id",) and r < 0.3 and real_ids:
            value = gen.choice(real_ids)
        elif name == "slug" and r < 0.3:
            value = gen.choice(("neurips", "iclr", "machine-learning", "NEURIPS"))
        else:
            value = gen.text()[:3000]
        encoded = encode(value) if r < 0.9 else gen.encoded(value)
        path = path.replace(f"<{name}>", encoded).replace(f"<int:{name}>", encoded).replace(
            f"<path:{name}>", encoded if r < 0.95 else "a/../../" + encoded)
    return path


def query_string(gen: Hostile) -> str:
    """A query string of known parameters and junk ones, hostile values, sometimes one repeated 1000 times."""
    pairs = []
    r = gen.rng.random()
    if r < 0.05:  # one parameter repeated 1000 times
        name = gen.choice(PARAMS)
        value = gen.encoded()[:200]
        return "&".join(f"{name}={value}" for _ in range(1000))
    for _ in range(gen.rng.randint(0, 6)):
        name = gen.choice(PARAMS) if gen.rng.random() < 0.9 else encode(gen.choice(JUNK_PARAMS))
        pairs.append(f"{name}={gen.encoded()}")
    if gen.rng.random() < 0.05:
        pairs.append(gen.choice(("&&&", "=", "q", "q==", "%", ";q=a", "q=a;b", "=&=")))
    return "&".join(pairs)
