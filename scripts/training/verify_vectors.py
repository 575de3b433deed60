#!/usr/bin/env python3
"""Check that a vectors file reproduces with xgboost.

  python3 scripts/training/verify_vectors.py MODEL.json VECTORS.json [--tol 1e-6]
  python3 scripts/training/verify_vectors.py --all [--models-dir Models]

A vectors file is a JSON list of {"features": [6 numbers or null], "probability": p}
(an optional "margin" is checked too).  null means missing (NaN).  The model is
loaded with xgboost (Booster(model_file=...)) and every row is predicted both
with a DMatrix and with inplace_predict.  Prints the max absolute difference
per model and exits 1 if any exceeds --tol (default 1e-6).  --all checks every
Models/**/model.json that has a vectors.json next to it.
"""

from __future__ import annotations

import argparse
import glob
import json
import math
import os
import sys

import numpy as np
import xgboost as xgb

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def load_vectors(path: str):
    with open(path) as f:
        vec = json.load(f)
    if not isinstance(vec, list) or not vec:
        raise ValueError(f"{path}: expected a non-empty JSON list")
    x = np.array([[math.nan if v is None else float(v) for v in o["features"]] for o in vec],
                 dtype=np.float64)
    p = np.array([float(o["probability"]) for o in vec])
    m = np.array([float(o.get("margin", math.nan)) for o in vec])
    return x, p, m


def verify(model_path: str, vectors_path: str, tol: float) -> bool:
    booster = xgb.Booster(model_file=model_path)
    x, p, m = load_vectors(vectors_path)
    if x.shape[1] != booster.num_features():
        print(f"FAIL {model_path}: vectors have {x.shape[1]} features, "
              f"model has {booster.num_features()}")
        return False
    dm = xgb.DMatrix(x, missing=np.nan, feature_names=booster.feature_names)
    got = booster.predict(dm).astype(np.float64)
    got_inplace = booster.inplace_predict(x).astype(np.float64)
    diff = float(np.max(np.abs(got - p)))
    diff_inplace = float(np.max(np.abs(got_inplace - p)))
    diff_margin = 0.0
    has_margin = ~np.isnan(m)
    if has_margin.any():
        gm = booster.predict(dm, output_margin=True).astype(np.float64)
        diff_margin = float(np.max(np.abs(gm[has_margin] - m[has_margin])))
    ok = max(diff, diff_inplace, diff_margin) <= tol
    print(f"{'ok  ' if ok else 'FAIL'} {os.path.relpath(model_path)}: {len(p)} rows, "
          f"{int(np.isnan(x).any(axis=1).sum())} with missing, max |diff| "
          f"DMatrix {diff:.3g}, inplace {diff_inplace:.3g}, margin {diff_margin:.3g} "
          f"(xgboost {xgb.__version__})")
    return ok


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Verify vectors against a model with xgboost.")
    ap.add_argument("model", nargs="?")
    ap.add_argument("vectors", nargs="?")
    ap.add_argument("--tol", type=float, default=1e-6)
    ap.add_argument("--all", action="store_true", help="every Models/**/model.json + vectors.json")
    ap.add_argument("--models-dir", default=os.path.join(REPO, "Models"))
    a = ap.parse_args(argv)
    if a.all:
        pairs = [(mp, os.path.join(os.path.dirname(mp), "vectors.json"))
                 for mp in sorted(glob.glob(os.path.join(a.models_dir, "**", "model.json"),
                                            recursive=True))]
        pairs = [(mp, vp) for mp, vp in pairs if os.path.exists(vp)]
        if not pairs:
            print(f"no model.json + vectors.json under {a.models_dir}")
            return 1
    elif a.model and a.vectors:
        pairs = [(a.model, a.vectors)]
    else:
        ap.error("give MODEL VECTORS or --all")
    results = [verify(mp, vp, a.tol) for mp, vp in pairs]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
