#!/usr/bin/env python3
"""Time xgboost's own prediction of a model, as the baseline for the Swift evaluator.

  python3 scripts/training/bench_xgboost.py [--model Models/purchase-predictor/model.json]
      [--rows 2000] [--nthread 1] [--seed 1]

Rows are synthetic purchases from generate_data.sample_features (contract
feature order).  Measured, with time.perf_counter_ns around each call after a
warm-up:

  perRowMicros           Booster.inplace_predict on a (1, 6) float32 array,
                         one row per call (the closest Python gets to the
                         Swift per-request path); median and p99 over --rows calls
  perRowMicrosDMatrix    DMatrix(row) construction + Booster.predict, one row per call
  batchRowsPerSecond     Booster.predict on one DMatrix of all --rows rows
                         (DMatrix construction included), best of --repeat
  batchRowsPerSecondInplace   inplace_predict on the whole (rows, 6) array, best of --repeat

Prints one JSON object on stdout:
  {"perRowMicros": {"median", "p99"}, "batchRowsPerSecond", ...details}
--nthread defaults to 1 so the numbers compare with a single-threaded
evaluator; pass 0 for xgboost's default (all cores).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np
import xgboost as xgb

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generate_data import sample_features  # noqa: E402

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def stats(ns: list[int]) -> dict:
    us = np.array(ns, dtype=np.float64) / 1000.0
    return {"median": round(float(np.median(us)), 3),
            "p99": round(float(np.percentile(us, 99)), 3),
            "mean": round(float(us.mean()), 3)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Benchmark xgboost prediction of a JSON model.")
    ap.add_argument("--model", default=os.path.join(REPO, "Models/purchase-predictor/model.json"))
    ap.add_argument("--rows", type=int, default=2000, help="N rows (per-row calls and batch size)")
    ap.add_argument("--nthread", type=int, default=1, help="0 = xgboost default")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--warmup", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=5, help="batch repetitions (best is kept)")
    a = ap.parse_args(argv)

    booster = xgb.Booster(model_file=a.model)
    if a.nthread > 0:
        booster.set_param({"nthread": a.nthread})
    names = booster.feature_names
    nf = booster.num_features()
    x = sample_features(np.random.default_rng(a.seed), a.rows)[:, :nf].astype(np.float32)
    rows = [np.ascontiguousarray(x[i:i + 1]) for i in range(a.rows)]

    for i in range(min(a.warmup, a.rows)):
        booster.inplace_predict(rows[i])
        booster.predict(xgb.DMatrix(rows[i], feature_names=names))

    per_row = []
    for r in rows:
        t0 = time.perf_counter_ns()
        booster.inplace_predict(r)
        per_row.append(time.perf_counter_ns() - t0)

    per_row_dm = []
    for r in rows:
        t0 = time.perf_counter_ns()
        booster.predict(xgb.DMatrix(r, feature_names=names))
        per_row_dm.append(time.perf_counter_ns() - t0)

    batch, batch_inplace = [], []
    for _ in range(a.repeat):
        t0 = time.perf_counter_ns()
        booster.predict(xgb.DMatrix(x, feature_names=names))
        batch.append(time.perf_counter_ns() - t0)
        t0 = time.perf_counter_ns()
        booster.inplace_predict(x)
        batch_inplace.append(time.perf_counter_ns() - t0)

    with open(a.model) as f:
        num_trees = int(json.load(f)["learner"]["gradient_booster"]["model"]
                        ["gbtree_model_param"]["num_trees"])
    result = {
        "perRowMicros": stats(per_row),
        "batchRowsPerSecond": round(a.rows / (min(batch) / 1e9), 1),
        "perRowMicrosDMatrix": stats(per_row_dm),
        "batchRowsPerSecondInplace": round(a.rows / (min(batch_inplace) / 1e9), 1),
        "rows": a.rows,
        "trees": num_trees,
        "nthread": a.nthread,
        "model": os.path.relpath(a.model, REPO) if a.model.startswith(REPO) else a.model,
        "xgboostVersion": xgb.__version__,
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
