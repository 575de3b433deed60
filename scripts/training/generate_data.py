#!/usr/bin/env python3
"""Synthetic training data for Guardian's purchase-regret predictor.

There is no labelled production data yet, so the model is trained on synthetic
purchases whose labels come from a known, documented ground truth.  The model
therefore learns *these assumptions*, nothing more; replace this generator with
real labelled outcomes as soon as they exist.

Features (contract order, see docs/protocol.md "Purchase-regret predictions")
-------------------------------------------------------------------------------------
  0 distanceToMerchant  km from the device to the merchant. Mostly inside or near
                        a 200 m geofence: log-normal, median ~0.3 km; 5% of rows
                        are far away (uniform 5-50 km).
  1 hourOfDay           0-23 local, integer. Daytime-heavy distribution with
                        evening/late-night purchases still common.
  2 isWeekend           0/1, P(1) = 2/7.
  3 budgetUtilization   [0, 1], Beta(2.2, 1.8) (spending tends to the upper half);
                        10% of rows are exactly 0.75, the contract's default when
                        no budget is known.
  4 merchantRegretRate  [0, 1], Beta(1.6, 4) (most merchants are rarely regretted);
                        5% exactly 0 (new merchants), 2% exactly 1.
  5 dwellTime           minutes, >= 0. 30% exactly 0 (the "enter" trigger, just
                        arrived); otherwise exponential with mean 12 min, capped
                        at 240.

Ground truth: when is a purchase regretted?
-------------------------------------------
A purchase is regretted with probability sigmoid(z), where

  z = -4.6
      + 1.6 * lateNight(hour)                       late evening / night
      + 0.55 * isWeekend                            weekends
      + 1.2 * budgetUtilization                     spending more of the budget...
      + 2.4 * max(0, budgetUtilization - 0.8) / 0.2 ...and much more when nearly used up
      + 3.2 * merchantRegretRate                    merchants often regretted
      + 0.55 * log1p(dwellTime)                     long dwell (browsing -> impulse)
      + 1.3 * exp(-distanceToMerchant / 0.4)        close to the merchant
      + 0.35 * isWeekend * lateNight(hour)          weekend nights are worse still
      + eps,   eps ~ Normal(0, 0.6)                 unobserved factors (noise)

  lateNight(h) = (1 + cos(2*pi*(h - 23) / 24)) / 2  is 1 at 23:00, ~0.93 at
  22:00 and 00:00, 0.5 at 17:00 and 05:00, 0 at 11:00 (circular, so 23 and 0
  are neighbours).

and the label `regretted` is a Bernoulli draw from that probability.  With the
default distributions about 40% of purchases are regretted, ~16% have a true
probability >= 0.70 and ~6% >= 0.85, so the contract's nudge (0.70) and high
risk (0.85) thresholds are both exercised.  Without noise the probability
ranges from ~0.01 (11:00 on a weekday, 50 km away, budget untouched, merchant
never regretted, no dwell) to ~0.9999 (23:00 on a weekend, at the merchant,
budget spent, merchant always regretted, 4 h dwell).  The noise caps the best
achievable held-out AUC at roughly 0.81.

Missing values
--------------
`--missing-rate R --missing-features a,b` blanks (empty CSV field, read back as
NaN) each listed feature independently with probability R *after* the label
was drawn.  This is only used to build the parity-test model whose trees use
`default_left`; the production contract always sends all six features.

Output
------
CSV with a header: the six features in contract order, then `regretted` (0/1)
and `trueProbability` (the ground-truth sigmoid(z) including noise, for
diagnostics only; never a training feature).  Deterministic for a given
`--seed` and `--rows` (numpy PCG64).

Usage:
  python3 scripts/training/generate_data.py --rows 20000 --seed 42 \
      --out scripts/training/data/purchases.csv
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import sys

import numpy as np

FEATURES = [
    "distanceToMerchant",
    "hourOfDay",
    "isWeekend",
    "budgetUtilization",
    "merchantRegretRate",
    "dwellTime",
]

# Hour-of-day sampling weights (index = hour). Daytime heavy, evenings common.
_HOUR_WEIGHTS = np.array(
    [1.0, 0.6, 0.35, 0.2, 0.15, 0.2, 0.5, 1.2, 2.0, 2.6, 3.2, 3.6,
     4.2, 4.0, 3.6, 3.6, 3.8, 4.4, 4.8, 4.6, 4.0, 3.2, 2.4, 1.6]
)


def late_night(hour: np.ndarray) -> np.ndarray:
    """1 at 23:00, 0 at 11:00, circular in the hour of day."""
    return (1.0 + np.cos(2.0 * math.pi * (hour - 23.0) / 24.0)) / 2.0


def true_logit(x: np.ndarray) -> np.ndarray:
    """Ground-truth logit (without noise) for rows of the six contract features."""
    dist, hour, weekend, budget, merchant, dwell = (x[:, i] for i in range(6))
    ln = late_night(hour)
    return (
        -4.6
        + 1.6 * ln
        + 0.55 * weekend
        + 1.2 * budget
        + 2.4 * np.maximum(0.0, budget - 0.8) / 0.2
        + 3.2 * merchant
        + 0.55 * np.log1p(dwell)
        + 1.3 * np.exp(-dist / 0.4)
        + 0.35 * weekend * ln
    )


def sample_features(rng: np.random.Generator, n: int) -> np.ndarray:
    dist = rng.lognormal(mean=math.log(0.3), sigma=0.9, size=n)
    far = rng.random(n) < 0.05
    dist[far] = rng.uniform(5.0, 50.0, size=far.sum())

    hour = rng.choice(24, size=n, p=_HOUR_WEIGHTS / _HOUR_WEIGHTS.sum()).astype(float)
    weekend = (rng.random(n) < 2.0 / 7.0).astype(float)

    budget = rng.beta(2.2, 1.8, size=n)
    budget[rng.random(n) < 0.10] = 0.75  # contract default when no budget is known

    merchant = rng.beta(1.6, 4.0, size=n)
    u = rng.random(n)
    merchant[u < 0.05] = 0.0
    merchant[(u >= 0.05) & (u < 0.07)] = 1.0

    dwell = np.minimum(rng.exponential(12.0, size=n), 240.0)
    dwell[rng.random(n) < 0.30] = 0.0

    return np.column_stack([dist, hour, weekend, budget, merchant, dwell])


def generate(n: int, seed: int, noise_sd: float = 0.6,
             missing_rate: float = 0.0, missing_features: list[str] | None = None):
    """Returns (X, y, p): features (NaN where missing), labels, true probabilities."""
    rng = np.random.default_rng(seed)
    x = sample_features(rng, n)
    z = true_logit(x) + rng.normal(0.0, noise_sd, size=n)
    p = 1.0 / (1.0 + np.exp(-z))
    y = (rng.random(n) < p).astype(int)
    if missing_rate > 0.0:
        for name in missing_features or []:
            j = FEATURES.index(name)
            x[rng.random(n) < missing_rate, j] = np.nan
    return x, y, p


def _fmt(v: float) -> str:
    return "" if math.isnan(v) else repr(float(v))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--noise-sd", type=float, default=0.6,
                    help="std-dev of the Gaussian noise added to the true logit")
    ap.add_argument("--missing-rate", type=float, default=0.0,
                    help="probability that each --missing-features value is blanked")
    ap.add_argument("--missing-features", default="",
                    help="comma-separated feature names that may be missing")
    ap.add_argument("--out", required=True, help="CSV path to write")
    a = ap.parse_args(argv)

    missing = [s for s in a.missing_features.split(",") if s]
    for name in missing:
        if name not in FEATURES:
            ap.error(f"unknown feature {name!r}; expected one of {FEATURES}")

    x, y, p = generate(a.rows, a.seed, a.noise_sd, a.missing_rate, missing)
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(FEATURES + ["regretted", "trueProbability"])
        for row, label, prob in zip(x, y, p):
            w.writerow([_fmt(v) for v in row] + [int(label), repr(float(prob))])
    print(f"wrote {a.rows} rows to {a.out}: {y.mean():.3f} regretted, "
          f"{np.isnan(x).any(axis=1).mean():.3f} rows with a missing value",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
