#!/bin/sh
# Regenerate the data, all models and vectors, then verify them (run from anywhere).
# Extra arguments go to train.py, e.g. --trained-at 2025-01-01T00:00:00Z --version 1.0.1
set -eu
cd "$(dirname "$0")/../.."
python3 scripts/training/generate_data.py --rows 20000 --seed 42 \
    --out scripts/training/data/purchases.csv
python3 scripts/training/generate_data.py --rows 20000 --seed 43 \
    --missing-rate 0.2 \
    --missing-features distanceToMerchant,budgetUtilization,merchantRegretRate,dwellTime \
    --out scripts/training/data/purchases-missing.csv
python3 scripts/training/train.py \
    --data scripts/training/data/purchases.csv \
    --missing-data scripts/training/data/purchases-missing.csv "$@"
python3 scripts/training/verify_vectors.py --all
python3 scripts/training/reference_eval.py --all
