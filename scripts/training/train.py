#!/usr/bin/env python3
"""Train Guardian's purchase-regret XGBoost model and the parity-test models.

Writes (relative to --models-dir, default Models/ of the repository):

  purchase-predictor/model.json       XGBoost's own save_model JSON (binary:logistic)
  purchase-predictor/vectors.json     [{features: [6], probability, margin}] predicted by xgboost
  purchase-predictor/metadata.json    name, version, sha256 of model.json, metrics, ...
  test-models/missing-values/         model trained with NaNs (default_left matters),
      model.json, vectors.json        explicit base_score 0.3; vectors contain JSON null
  test-models/legacy-base-score/      tiny model whose base_score was rewritten to the
      model.json, vectors.json        pre-3.1 plain string form "4.3388933E-1"; vectors
                                      come from xgboost loading that edited file

Every probability in a vectors file is xgboost's own output (float32, written
with full precision), and every vectors file is re-checked against the model
file after writing.  Features: see generate_data.FEATURES (contract order).

Usage (from the repository root):
  python3 scripts/training/train.py \
      --data scripts/training/data/purchases.csv \
      --missing-data scripts/training/data/purchases-missing.csv
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import hashlib
import json
import math
import os
import sys

import numpy as np
import xgboost as xgb

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generate_data import FEATURES  # noqa: E402

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MAX_MODEL_BYTES = 1_000_000
LEGACY_BASE_SCORE = "4.3388933E-1"  # how xgboost <= 3.0 wrote a base_score


# --------------------------------------------------------------------------- io

def load_csv(path: str):
    with open(path, newline="") as f:
        r = csv.reader(f)
        header = next(r)
        if header[:6] != FEATURES or header[6] != "regretted":
            raise SystemExit(f"{path}: unexpected header {header}")
        rows = list(r)
    x = np.array([[float(v) if v != "" else math.nan for v in row[:6]] for row in rows])
    y = np.array([int(row[6]) for row in rows], dtype=float)
    return x, y


def split(x, y, seed: int, held_out: float = 0.2):
    perm = np.random.default_rng(seed).permutation(len(y))
    n_test = int(round(len(y) * held_out))
    te, tr = perm[:n_test], perm[n_test:]
    return x[tr], y[tr], x[te], y[te]


def write_vectors(path: str, booster: xgb.Booster, rows: np.ndarray) -> list[dict]:
    """Predicts rows with xgboost and writes [{features, probability, margin}].

    NaN features are written as JSON null.  Floats are written with repr (full
    double precision; the probabilities themselves are float32 values)."""
    rows = np.asarray(rows, dtype=np.float64)
    dm = xgb.DMatrix(rows, feature_names=booster.feature_names, missing=np.nan)
    prob = booster.predict(dm)
    margin = booster.predict(dm, output_margin=True)
    # Cross-check the other prediction path (inplace_predict on float64 input).
    prob2 = booster.inplace_predict(rows)
    if not np.array_equal(prob, prob2):
        raise SystemExit(f"{path}: DMatrix and inplace_predict disagree "
                         f"(max diff {np.max(np.abs(prob - prob2))})")
    out = []
    for r, p, m in zip(rows, prob, margin):
        out.append({
            "features": [None if math.isnan(v) else float(v) for v in r],
            "probability": float(p),
            "margin": float(m),
        })
    with open(path, "w") as f:
        f.write("[\n")
        f.write(",\n".join(json.dumps(o, allow_nan=False) for o in out))
        f.write("\n]\n")
    return out


def sha256_file(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def save_model(booster: xgb.Booster, path: str) -> dict:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    booster.save_model(path)  # .json extension -> JSON (not UBJSON)
    size = os.path.getsize(path)
    if size >= MAX_MODEL_BYTES:
        raise SystemExit(f"{path} is {size} bytes (limit {MAX_MODEL_BYTES})")
    with open(path) as f:
        return json.load(f)


# ---------------------------------------------------------------------- metrics

def auc(y: np.ndarray, p: np.ndarray) -> float:
    """Rank AUC (Mann-Whitney) with average ranks for ties."""
    order = np.argsort(p, kind="mergesort")
    ranks = np.empty(len(p))
    sp = p[order]
    i = 0
    while i < len(sp):
        j = i
        while j + 1 < len(sp) and sp[j + 1] == sp[i]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2.0 + 1.0
        i = j + 1
    pos = y == 1
    n1, n0 = pos.sum(), (~pos).sum()
    return float((ranks[pos].sum() - n1 * (n1 + 1) / 2.0) / (n1 * n0))


def logloss(y: np.ndarray, p: np.ndarray) -> float:
    p = np.clip(p.astype(np.float64), 1e-15, 1 - 1e-15)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


# ---------------------------------------------------------------- vector rows

def root_splits(model_json: dict) -> list[tuple[int, float]]:
    """Distinct (feature, threshold) pairs at the roots of the trees: every row
    is compared against them, so boundary rows built on them always exercise
    the comparison."""
    seen = []
    for t in model_json["learner"]["gradient_booster"]["model"]["trees"]:
        if t["left_children"][0] == -1:
            continue
        pair = (t["split_indices"][0], float(t["split_conditions"][0]))
        if pair not in seen:
            seen.append(pair)
    return seen


def boundary_rows(model_json: dict, base: np.ndarray, limit: int) -> list[np.ndarray]:
    """For a root split (f, s) three rows differing only in feature f:
      s exactly (float32 value) -> x < s is false: right (or default)
      the float32 just below s   -> left
      the float64 just below s   -> a double that is < s, but it rounds to s
                                    in float32, so xgboost goes RIGHT. An
                                    evaluator comparing in double goes left."""
    rows = []
    for f, s in root_splits(model_json)[:limit]:
        s32 = np.float32(s)
        for v in (float(s32),
                  float(np.nextafter(s32, np.float32(-np.inf))),
                  float(np.nextafter(float(s32), -math.inf))):
            r = base.copy()
            r[f] = v
            rows.append(r)
    return rows


def main_vector_rows(model_json, x_test, rng) -> np.ndarray:
    rows = [np.zeros(6)]
    # Every corner of the contract ranges (plus a large distance and long dwell).
    for bits in range(64):
        rows.append(np.array([
            1000.0 if bits & 1 else 0.0,
            23.0 if bits & 2 else 0.0,
            1.0 if bits & 4 else 0.0,
            1.0 if bits & 8 else 0.0,
            1.0 if bits & 16 else 0.0,
            600.0 if bits & 32 else 0.0,
        ]))
    # The brief's background-task example (defaults budget 0.75, dwell 0), each hour.
    for h in range(24):
        rows.append(np.array([0.1, float(h), 0.0, 0.75, 0.3, 0.0]))
    rows.append(np.array([0.1, 23.0, 1.0, 0.75, 0.3, 0.0]))
    # Out of the nominal ranges (must not crash; trees just route them).
    rows += [np.array(r, dtype=float) for r in (
        [20000.0, 12.0, 0.0, 0.5, 0.2, 5.0],
        [0.2, 22.0, 1.0, 1.0, 0.9, 100000.0],
        [1e-9, 23.0, 0.0, 0.999999, 0.000001, 1e-9],
        [0.2, 3.0, 0.0, 0.0, 1.0, 0.0],
    )]
    # Float32 boundary rows on the root splits of the first trees.
    base = np.array([0.25, 20.0, 0.0, 0.85, 0.45, 8.0])
    rows += boundary_rows(model_json, base, limit=40)
    # Held-out rows (real feature distribution).
    pick = rng.choice(len(x_test), size=120, replace=False)
    rows += list(x_test[pick])
    return np.array(rows)


def missing_vector_rows(model_json, x_test, rng) -> np.ndarray:
    nan = math.nan
    rows = [np.full(6, nan), np.zeros(6)]
    base = np.array([0.25, 21.0, 1.0, 0.9, 0.4, 12.0])
    for j in range(6):  # each feature missing alone, and all but one missing
        r = base.copy(); r[j] = nan; rows.append(r)
        r = np.full(6, nan); r[j] = base[j]; rows.append(r)
    for bits in range(64):  # every pattern of missing features on one row
        r = base.copy()
        for j in range(6):
            if bits >> j & 1:
                r[j] = nan
        rows.append(r)
    rows += boundary_rows(model_json, base, limit=20)
    pick = rng.choice(len(x_test), size=120, replace=False)
    rows += list(x_test[pick])
    return np.array(rows)


# ---------------------------------------------------------------------- train

def train(x, y, *, rounds, depth, eta, seed, nthread, base_score=None,
          evals_x=None, evals_y=None):
    params = {
        "objective": "binary:logistic",
        "eval_metric": ["logloss", "auc"],
        "tree_method": "hist",
        "max_depth": depth,
        "eta": eta,
        "min_child_weight": 5,
        "subsample": 0.8,
        "colsample_bytree": 1.0,
        "lambda": 1.0,
        "seed": seed,
        "nthread": nthread,
    }
    if base_score is not None:
        params["base_score"] = base_score
    dtrain = xgb.DMatrix(x, label=y, feature_names=FEATURES, missing=np.nan)
    evals = [(dtrain, "train")]
    if evals_x is not None:
        evals.append((xgb.DMatrix(evals_x, label=evals_y, feature_names=FEATURES,
                                  missing=np.nan), "heldout"))
    booster = xgb.train(params, dtrain, num_boost_round=rounds, evals=evals,
                        verbose_eval=False)
    booster.feature_names = FEATURES  # contract order, written into the JSON
    return booster


def check_vectors(model_path: str, vectors: list[dict]) -> float:
    b = xgb.Booster(model_file=model_path)
    x = np.array([[math.nan if v is None else v for v in o["features"]] for o in vectors])
    p = b.predict(xgb.DMatrix(x, missing=np.nan, feature_names=b.feature_names))
    diff = float(np.max(np.abs(p.astype(np.float64) - np.array([o["probability"] for o in vectors]))))
    if diff > 1e-6:
        raise SystemExit(f"{model_path}: reloaded model differs from its vectors by {diff}")
    return diff


def base_score_of(model_path: str) -> str:
    with open(model_path) as f:
        return json.load(f)["learner"]["learner_model_param"]["base_score"]


def build_main(a, models_dir):
    x, y = load_csv(a.data)
    xtr, ytr, xte, yte = split(x, y, a.seed)
    b = train(xtr, ytr, rounds=a.trees, depth=a.depth, eta=a.eta, seed=a.seed,
              nthread=a.nthread, evals_x=xte, evals_y=yte)
    out = os.path.join(models_dir, "purchase-predictor")
    path = os.path.join(out, "model.json")
    mj = save_model(b, path)
    p = b.predict(xgb.DMatrix(xte, feature_names=FEATURES))
    metrics = {"auc": round(auc(yte, p), 6), "logloss": round(logloss(yte, p), 6)}
    vec = write_vectors(os.path.join(out, "vectors.json"), b,
                        main_vector_rows(mj, xte, np.random.default_rng(a.seed + 1)))
    check_vectors(path, vec)
    meta = {
        "name": "purchase-predictor",
        "version": a.version,
        "sha256": sha256_file(path),
        "xgboostVersion": xgb.__version__,
        "features": FEATURES,
        "trainedAt": a.trained_at,
        "metrics": metrics,
        "objective": "binary:logistic",
        "numTrees": a.trees,
        "maxDepth": a.depth,
        "learningRate": a.eta,
        "baseScore": mj["learner"]["learner_model_param"]["base_score"],
        "threshold": 0.70,
        "trainRows": int(len(ytr)),
        "heldOutRows": int(len(yte)),
        "seed": a.seed,
        "data": "synthetic (scripts/training/generate_data.py)",
    }
    with open(os.path.join(out, "metadata.json"), "w") as f:
        json.dump(meta, f, indent=2)
        f.write("\n")
    print(f"purchase-predictor: {os.path.getsize(path)} bytes, base_score "
          f"{meta['baseScore']}, held-out auc {metrics['auc']} logloss "
          f"{metrics['logloss']}, {len(vec)} vectors, "
          f"{sum(o['probability'] >= 0.70 for o in vec)} >= 0.70, "
          f"{sum(o['probability'] >= 0.85 for o in vec)} >= 0.85")


def build_missing(a, models_dir):
    x, y = load_csv(a.missing_data)
    if not np.isnan(x).any():
        raise SystemExit(f"{a.missing_data} has no missing values")
    xtr, ytr, xte, yte = split(x, y, a.seed)
    b = train(xtr, ytr, rounds=40, depth=4, eta=0.15, seed=a.seed,
              nthread=a.nthread, base_score=0.3)
    out = os.path.join(models_dir, "test-models", "missing-values")
    path = os.path.join(out, "model.json")
    mj = save_model(b, path)
    trees = mj["learner"]["gradient_booster"]["model"]["trees"]
    n_left = sum(sum(t["default_left"][i] for i in range(len(t["default_left"]))
                     if t["left_children"][i] != -1) for t in trees)
    if n_left == 0:
        raise SystemExit("missing-values model has no default_left split")
    vec = write_vectors(os.path.join(out, "vectors.json"), b,
                        missing_vector_rows(mj, xte, np.random.default_rng(a.seed + 2)))
    check_vectors(path, vec)
    print(f"missing-values: {os.path.getsize(path)} bytes, base_score "
          f"{base_score_of(path)}, {n_left} default_left splits, {len(vec)} vectors, "
          f"{sum(any(v is None for v in o['features']) for o in vec)} with nulls")


def build_legacy(a, models_dir):
    x, y = load_csv(a.data)
    xtr, ytr, xte, yte = split(x, y, a.seed)
    b = train(xtr, ytr, rounds=6, depth=3, eta=0.3, seed=a.seed, nthread=a.nthread)
    out = os.path.join(models_dir, "test-models", "legacy-base-score")
    path = os.path.join(out, "model.json")
    mj = save_model(b, path)
    # Rewrite base_score in the pre-3.1 form (a plain float string, no brackets).
    mj["learner"]["learner_model_param"]["base_score"] = LEGACY_BASE_SCORE
    with open(path, "w") as f:
        json.dump(mj, f, separators=(",", ":"))
    # Vectors come from xgboost loading the *edited* file.
    edited = xgb.Booster(model_file=path)
    rows = main_vector_rows(mj, xte, np.random.default_rng(a.seed + 3))
    vec = write_vectors(os.path.join(out, "vectors.json"), edited, rows)
    check_vectors(path, vec)
    # The edit must have changed predictions (i.e. base_score really is read).
    orig = b.predict(xgb.DMatrix(rows, feature_names=FEATURES))
    if np.max(np.abs(orig - np.array([o["probability"] for o in vec]))) < 1e-3:
        raise SystemExit("legacy base_score edit did not change predictions")
    print(f"legacy-base-score: {os.path.getsize(path)} bytes, base_score "
          f"{base_score_of(path)}, {len(vec)} vectors")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Train the purchase-regret XGBoost models.")
    ap.add_argument("--data", default=os.path.join(REPO, "scripts/training/data/purchases.csv"))
    ap.add_argument("--missing-data",
                    default=os.path.join(REPO, "scripts/training/data/purchases-missing.csv"))
    ap.add_argument("--models-dir", default=os.path.join(REPO, "Models"))
    ap.add_argument("--only", choices=["purchase-predictor", "missing-values",
                                       "legacy-base-score"], action="append")
    ap.add_argument("--trees", type=int, default=100)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--eta", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--nthread", type=int, default=1)
    ap.add_argument("--version", default="1.0.0")
    ap.add_argument("--trained-at", default=dt.datetime.now(dt.timezone.utc)
                    .replace(microsecond=0).isoformat().replace("+00:00", "Z"))
    a = ap.parse_args(argv)
    todo = a.only or ["purchase-predictor", "missing-values", "legacy-base-score"]
    if "purchase-predictor" in todo:
        build_main(a, a.models_dir)
    if "missing-values" in todo:
        build_missing(a, a.models_dir)
    if "legacy-base-score" in todo:
        build_legacy(a, a.models_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
