"""What the benchmarks share: quantiles of their samples (the scripts import it from
their own folder, which Python puts first on the path when it runs a script)."""

from __future__ import annotations


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]
