"""Registry of known conferences: slug, display name, aliases.

The registry only improves labels and merges aliases (``nips`` -> ``neurips``); it is
not an allow-list. An unknown slug is accepted and gets a label derived from it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Conference:
    slug: str
    name: str
    full_name: str = ""
    aliases: tuple[str, ...] = ()


KNOWN: tuple[Conference, ...] = (
    Conference("neurips", "NeurIPS", "Conference on Neural Information Processing Systems", ("nips",)),
    Conference("iclr", "ICLR", "International Conference on Learning Representations"),
    Conference("icml", "ICML", "International Conference on Machine Learning"),
    Conference("cvpr", "CVPR", "Conference on Computer Vision and Pattern Recognition"),
    Conference("iccv", "ICCV", "International Conference on Computer Vision"),
    Conference("eccv", "ECCV", "European Conference on Computer Vision"),
    Conference("wacv", "WACV", "Winter Conference on Applications of Computer Vision"),
    Conference("3dv", "3DV", "International Conference on 3D Vision"),
    Conference("acl", "ACL", "Annual Meeting of the Association for Computational Linguistics"),
    Conference("naacl", "NAACL", "North American Chapter of the ACL"),
    Conference("emnlp", "EMNLP", "Empirical Methods in Natural Language Processing"),
    Conference("coling", "COLING", "International Conference on Computational Linguistics"),
    Conference("aaai", "AAAI", "AAAI Conference on Artificial Intelligence"),
    Conference("ijcai", "IJCAI", "International Joint Conference on Artificial Intelligence"),
    Conference("aistats", "AISTATS", "Artificial Intelligence and Statistics"),
    Conference("colt", "COLT", "Conference on Learning Theory"),
    Conference("alt", "ALT", "Algorithmic Learning Theory"),
    Conference("uai", "UAI", "Uncertainty in Artificial Intelligence"),
    Conference("acml", "ACML", "Asian Conference on Machine Learning"),
    Conference("automl", "AutoML", "International Conference on Automated Machine Learning"),
    Conference("kdd", "KDD", "Knowledge Discovery and Data Mining"),
    Conference("www", "WWW", "The Web Conference"),
    Conference("icra", "ICRA", "International Conference on Robotics and Automation"),
    Conference("iros", "IROS", "International Conference on Intelligent Robots and Systems"),
    Conference("rss", "RSS", "Robotics: Science and Systems"),
    Conference("corl", "CoRL", "Conference on Robot Learning"),
    Conference("siggraph", "SIGGRAPH", "SIGGRAPH"),
    Conference("siggraphasia", "SIGGRAPH Asia", "SIGGRAPH Asia", ("siggraph-asia",)),
    Conference("acmmm", "ACM MM", "ACM International Conference on Multimedia", ("mm",)),
    Conference("ai4x", "AI4X", "AI for X"),
    Conference("colm", "COLM", "Conference on Language Modeling"),
)

_BY_SLUG = {c.slug: c for c in KNOWN}
_ALIASES = {alias: c.slug for c in KNOWN for alias in c.aliases}
_SLUG_RE = re.compile(r"[^a-z0-9]+")


def canonical_slug(value: str) -> str:
    """``NIPS`` -> ``neurips``; any other text becomes a lowercase ``[a-z0-9-]`` slug."""
    slug = _SLUG_RE.sub("-", value.strip().lower()).strip("-")
    return _ALIASES.get(slug, slug)


def lookup(slug: str) -> Conference:
    """The registry entry, or a synthesised one with a readable label for an unknown slug."""
    slug = canonical_slug(slug)
    known = _BY_SLUG.get(slug)
    if known:
        return known
    label = slug.upper() if len(slug) <= 6 else slug.replace("-", " ").title()
    return Conference(slug, label, label)


def label(slug: str) -> str:
    return lookup(slug).name
