#!/usr/bin/env python3
"""Reduce the text prior (training/text-prior.mjs: USE-Lite's vector of each piece of our tokenizer)
to its K strongest directions, for the frozen text channel of the shipped model (compose-model.mjs).

Uncentred SVD: the projection that best keeps dot products between rows, hence between the mean-pooled
sentence vectors the channel computes (pooling is linear). Prints the share of energy kept.

  /usr/bin/python3 training/text-channel.py PRIOR.f32 OUT.f32 [--dim 512] [--keep 128]
"""
import argparse

import numpy as np


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("prior")
    ap.add_argument("out")
    ap.add_argument("--dim", type=int, default=512, help="width of the prior's rows (USE-Lite: 512)")
    ap.add_argument("--keep", type=int, default=128, help="directions kept")
    a = ap.parse_args()
    table = np.fromfile(a.prior, dtype=np.float32).reshape(-1, a.dim).astype(np.float64)
    gram = table.T @ table
    vals, vecs = np.linalg.eigh(gram)
    order = np.argsort(vals)[::-1][: a.keep]
    kept = vals[order].sum() / vals.sum()
    projected = (table @ vecs[:, order]).astype(np.float32)
    projected.tofile(a.out)
    print(f"text channel: {table.shape[0]} rows, {a.dim} -> {a.keep} dims, {kept:.1%} of the energy kept -> {a.out}")


if __name__ == "__main__":
    main()
