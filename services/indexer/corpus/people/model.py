"""The pairwise score: a logistic model over :data:`.evidence.FEATURES`, its weights as data (``weights.toml``).

Logistic regression, not boosted trees, because it measured as well on the benchmark (see
``weights.toml`` for the figures) and its weights are a table an operator can read: each
feature's pull on a decision is its weight times its value (:mod:`.explain` prints exactly that).
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .evidence import FEATURES, LOGGED
from .evidence import features as feature_values
from .table import SlotTable

WEIGHTS = Path(__file__).with_name("weights.toml")
_LOGGED = np.array([f in LOGGED for f in FEATURES])


@dataclass(frozen=True)
class Model:
    """Weights per feature (after :func:`transform`), the intercept, and the clustering's threshold."""

    weights: tuple[float, ...]
    intercept: float
    threshold: float            # average-linkage distance (1 - probability) at which clusters stop merging
    assign: float | None = None  # mean probability at which a slot joins a profile-anchored person (:mod:`.anchor`);
                                 # None: no anchoring, average linkage over everything

    def logit(self, features: np.ndarray) -> np.ndarray:
        return transform(features) @ np.asarray(self.weights, np.float32) + np.float32(self.intercept)

    def probability(self, features: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-np.clip(self.logit(features), -30, 30)))

    def pair_logits(self, table: SlotTable, vectors: np.ndarray | None, profiles: np.ndarray) -> np.ndarray:
        """The logit of every within-block pair of the table, one feature at a time."""
        out = np.full(len(table.left), np.float32(self.intercept), np.float32)
        for (name, values), weight in zip(feature_values(table, vectors, profiles), self.weights):
            if weight:
                out += np.float32(weight) * (np.log1p(np.maximum(values, 0)) if name in LOGGED else values)
        return out

    def contributions(self, features: np.ndarray) -> dict[str, float]:
        """Each feature's share of one pair's logit (its weight times its transformed value)."""
        values = transform(features[None, :])[0]
        return {f: float(w * v) for f, w, v in zip(FEATURES, self.weights, values)}


def transform(features: np.ndarray) -> np.ndarray:
    """The features as the model sees them: counts and sums as log(1 + x)."""
    out = np.array(features, np.float32, copy=True)
    out[..., _LOGGED] = np.log1p(np.maximum(out[..., _LOGGED], 0))
    return out


def load_model(path: Path = WEIGHTS) -> Model:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    weights = data["weights"]
    missing = [f for f in FEATURES if f not in weights]
    if missing:
        raise ValueError(f"{path}: no weight for {', '.join(missing)}")
    assign = data.get("assign")
    return Model(tuple(float(weights[f]) for f in FEATURES), float(data["intercept"]), float(data["threshold"]),
                 None if assign is None else float(assign))


@functools.cache
def default_model() -> Model:
    return load_model()


def to_toml(model: Model, comment: str = "") -> str:
    """A model as ``weights.toml`` text."""
    lines = [f"# {line}" if line else "#" for line in comment.splitlines()]
    lines += [f"intercept = {model.intercept:.6g}", f"threshold = {model.threshold:.6g}"]
    lines += [] if model.assign is None else [f"assign = {model.assign:.6g}"]
    lines += ["", "[weights]"]
    lines += [f"{f} = {w:.6g}" for f, w in zip(FEATURES, model.weights)]
    return "\n".join(lines) + "\n"
