"""Writes into the live index: bulk writes that skip unchanged papers, each paper's vectors, and the
journal of ids written while a rebuild runs (so it replays them)."""
