#!/usr/bin/env python3
"""Reference evaluator for XGBoost JSON models, WITHOUT xgboost.

This is the executable form of the "What a native evaluator reads" section of
scripts/training/README.md: it reads only the JSON fields listed there and must
reproduce xgboost's probabilities on every vectors file.  The Swift evaluator
should do exactly what `Model.predict` does.

  python3 scripts/training/reference_eval.py --all            # every Models/**/vectors.json
  python3 scripts/training/reference_eval.py MODEL VECTORS [--tol 1e-6]

For each model it reports the max |probability - xgboost's| for
  float32  the faithful evaluator (float32 compare, float32 accumulation/sigmoid)
  float64  float32 compare, but double accumulation and sigmoid (also fine)
  naive    compares x < split in *double* (the classic bug) - expected to
           differ on the boundary rows of the vectors files; shown, not checked.
Exit status 1 if float32 or float64 exceeds --tol.  Uses only json, math, struct.
"""

from __future__ import annotations

import argparse
import glob
import json
import math
import os
import struct
import sys

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def f32(x: float) -> float:
    """Round a double to the nearest float32 (like Swift's Float(x))."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def parse_base_score(s) -> float:
    """base_score forms: "[3.9675E-1]" (xgboost >= 3.1, a one-element vector
    for single-target models), "4.3388933E-1" / "5E-1" (<= 3.0)."""
    if isinstance(s, (int, float)):
        return float(s)
    s = s.strip()
    if s.startswith("["):
        if not s.endswith("]"):
            raise ValueError(f"bad base_score {s!r}")
        parts = [p for p in s[1:-1].split(",") if p.strip()]
        if len(parts) != 1:
            raise ValueError(f"base_score {s!r}: expected exactly one value (single target)")
        s = parts[0].strip()
    return float(s)


class Tree:
    __slots__ = ("left", "right", "feature", "cond32", "default_left")

    def __init__(self, t: dict, num_feature: int):
        self.left = t["left_children"]
        self.right = t["right_children"]
        self.feature = t["split_indices"]
        # split threshold at inner nodes, leaf value at leaves; float32 in xgboost
        self.cond32 = [f32(float(v)) for v in t["split_conditions"]]
        self.default_left = [bool(v) for v in t["default_left"]]
        n = len(self.left)
        for name in ("right_children", "split_indices", "split_conditions", "default_left"):
            if len(t[name]) != n:
                raise ValueError(f"tree {t.get('id')}: {name} has {len(t[name])} != {n} nodes")
        if any(st != 0 for st in t.get("split_type", [])):
            raise ValueError(f"tree {t.get('id')}: categorical splits are not supported")
        for i in range(n):
            if self.left[i] != -1:
                if not (0 < self.left[i] < n and 0 < self.right[i] < n):
                    raise ValueError(f"tree {t.get('id')}: bad child index at node {i}")
                if not 0 <= self.feature[i] < num_feature:
                    raise ValueError(f"tree {t.get('id')}: bad feature index at node {i}")

    def leaf(self, x32: list, double_compare_x=None) -> float:
        """x32: features already rounded to float32 (NaN = missing)."""
        nid = 0
        while self.left[nid] != -1:
            f = self.feature[nid]
            v = x32[f] if double_compare_x is None else double_compare_x[f]
            if math.isnan(v):
                nid = self.left[nid] if self.default_left[nid] else self.right[nid]
            elif v < self.cond32[nid]:
                nid = self.left[nid]
            else:
                nid = self.right[nid]
        return self.cond32[nid]


class Model:
    def __init__(self, j: dict):
        learner = j["learner"]
        objective = learner["objective"]["name"]
        if objective != "binary:logistic":
            raise ValueError(f"objective {objective!r} is not binary:logistic")
        gb = learner["gradient_booster"]
        if gb.get("name", "gbtree") != "gbtree":
            raise ValueError(f"gradient_booster {gb.get('name')!r} is not gbtree")
        param = learner["learner_model_param"]
        self.num_feature = int(param["num_feature"])
        if int(param.get("num_class", "0")) > 1 or int(param.get("num_target", "1")) != 1:
            raise ValueError("only single-target binary models are supported")
        self.base_score = f32(parse_base_score(param["base_score"]))
        if not 0.0 < self.base_score < 1.0:
            raise ValueError(f"base_score {self.base_score} outside (0, 1)")
        model = gb["model"]
        if int(model["gbtree_model_param"]["num_trees"]) != len(model["trees"]):
            raise ValueError("num_trees does not match the trees array")
        self.trees = [Tree(t, self.num_feature) for t in model["trees"]]
        self.feature_names = learner.get("feature_names") or []
        # margin = logit(base_score); xgboost computes it in float32
        self.base_margin32 = f32(-math.log(f32(f32(1.0 / self.base_score) - 1.0)))
        self.base_margin64 = math.log(self.base_score / (1.0 - self.base_score))

    def predict(self, features: list, mode: str = "float32") -> float:
        if len(features) != self.num_feature:
            raise ValueError(f"expected {self.num_feature} features, got {len(features)}")
        x = [math.nan if v is None else float(v) for v in features]
        x32 = [v if math.isnan(v) else f32(v) for v in x]
        if mode == "float32":
            margin = self.base_margin32
            for t in self.trees:
                margin = f32(margin + t.leaf(x32))
            e = f32(math.exp(-margin)) if -margin < 88.0 else math.inf
            return f32(1.0 / f32(1.0 + e))
        if mode == "float64":
            margin = self.base_margin64 + math.fsum(t.leaf(x32) for t in self.trees)
        elif mode == "naive":
            margin = self.base_margin64 + sum(t.leaf(x32, double_compare_x=x) for t in self.trees)
        else:
            raise ValueError(mode)
        return 1.0 / (1.0 + math.exp(-margin))


def check(model_path: str, vectors_path: str, tol: float) -> bool:
    with open(model_path) as f:
        model = Model(json.load(f))
    with open(vectors_path) as f:
        vectors = json.load(f)
    worst = {"float32": 0.0, "float64": 0.0, "naive": 0.0}
    naive_rows = 0
    for o in vectors:
        for mode in worst:
            d = abs(model.predict(o["features"], mode) - o["probability"])
            worst[mode] = max(worst[mode], d)
            if mode == "naive" and d > 1e-6:
                naive_rows += 1
    ok = worst["float32"] <= tol and worst["float64"] <= tol
    print(f"{'ok  ' if ok else 'FAIL'} {os.path.relpath(model_path)}: {len(vectors)} rows, "
          f"{len(model.trees)} trees, base_score {model.base_score!r}; max |diff| "
          f"float32 {worst['float32']:.3g}, float64 {worst['float64']:.3g}; "
          f"naive double compare: {naive_rows} rows off (max {worst['naive']:.3g})")
    return ok


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Pure-Python XGBoost JSON evaluator check.")
    ap.add_argument("model", nargs="?")
    ap.add_argument("vectors", nargs="?")
    ap.add_argument("--tol", type=float, default=1e-6)
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--models-dir", default=os.path.join(REPO, "Models"))
    a = ap.parse_args(argv)
    if a.all:
        pairs = [(mp, os.path.join(os.path.dirname(mp), "vectors.json"))
                 for mp in sorted(glob.glob(os.path.join(a.models_dir, "**", "model.json"),
                                            recursive=True))]
        pairs = [p for p in pairs if os.path.exists(p[1])]
    elif a.model and a.vectors:
        pairs = [(a.model, a.vectors)]
    else:
        ap.error("give MODEL VECTORS or --all")
    if not pairs:
        print("nothing to check")
        return 1
    return 0 if all([check(mp, vp, a.tol) for mp, vp in pairs]) else 1


if __name__ == "__main__":
    sys.exit(main())
