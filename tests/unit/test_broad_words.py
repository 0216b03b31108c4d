"""deploy/tools/broad_words.py: each word's stems read back from one _analyze of many words."""

from __future__ import annotations

import importlib.util
from pathlib import Path

TOOL = Path(__file__).resolve().parents[2] / "deploy" / "tools" / "broad_words.py"


def _tool():
    spec = importlib.util.spec_from_file_location("broad_words_tool", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Analyzer:
    """Tokens as Elasticsearch gives them for an array: offsets run on across the values (one apart)."""

    def __init__(self, tokens: dict[str, list[tuple[int, str]]]):
        self.tokens = tokens  # word -> (offset inside the word, token)

    def analyze(self, index: str, analyzer: str, text: list[str]) -> dict:
        out, offset = [], 0
        for word in text:
            out += [{"token": token, "start_offset": offset + at} for at, token in self.tokens.get(word, [])]
            offset += len(word) + 1
        return {"tokens": out}


def test_each_word_gets_the_tokens_its_own_text_made():
    tool = _tool()
    es = type("ES", (), {"indices": Analyzer({"learning": [(0, "learn")], "modeler": [(0, "modeler"), (0, "model")],
                                              "the": [], "x2y": [(0, "x"), (2, "y")]})})()
    got = tool.stems(es, "papers", ["learning", "the", "modeler", "x2y"])
    assert got == {"learning": {"learn"}, "modeler": {"modeler", "model"}, "x2y": {"x", "y"}}
