#!/usr/bin/env python3
"""A/B of two tile-run binaries: each case runs with OLD and NEW in every
round, the two taking turns to go first, each binary with a kernel cache
of its own; a reference may run beside them in the same round. Prints
each side's per-round times and their median. Times are tile-run's own
(--times: every timed run; the median of each run's file is the round's).

    python3 scripts/ab-tile-run.py OLD NEW [--rounds N] [--us]
        [--tile-run-arg ARG ...] CASE...

A CASE is `name|kernel.tile|NAME=EXPR,NAME=EXPR,...` (the --set values,
comma-separated), optionally followed by `|REF`:
    cublas:M,N,K               torch.matmul of fp16 M x K and K x N
    cudnn:Z,H,N_CTX,D,causal   scaled_dot_product_attention, cuDNN backend
    flash:... / efficient:...  the same with that backend
References need torch and triton (do_bench medians); cases without one
need neither. Exit status 1 if a run fails.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile


def parse_case(text):
    parts = text.split("|")
    if len(parts) not in (3, 4) or not parts[0] or not parts[1]:
        raise SystemExit(f"ab-tile-run: bad case '{text}' (name|kernel|sets[|ref])")
    sets = [s for s in parts[2].split(",") if s]
    return parts[0], parts[1], sets, (parts[3] if len(parts) == 4 else None)


def reference(spec):
    """A function timing the reference in ms, made once per case."""
    import torch
    import triton
    kind, _, args = spec.partition(":")
    values = args.split(",")
    if kind == "cublas":
        m, n, k = (int(v) for v in values)
        a = torch.randn(m, k, device="cuda", dtype=torch.float16)
        b = torch.randn(k, n, device="cuda", dtype=torch.float16)
        return lambda: triton.testing.do_bench(lambda: a @ b, return_mode="median")
    backends = {"cudnn": "CUDNN_ATTENTION", "flash": "FLASH_ATTENTION", "efficient": "EFFICIENT_ATTENTION"}
    if kind in backends:
        import torch.nn.functional as F
        from torch.nn.attention import SDPBackend, sdpa_kernel
        z, h, n, d = (int(v) for v in values[:4])
        causal = values[4].lower() in ("1", "true", "yes")
        q, k, v = (torch.randn(z, h, n, d, device="cuda", dtype=torch.float16) for _ in range(3))
        backend = getattr(SDPBackend, backends[kind])

        def run():
            with sdpa_kernel(backend):
                return triton.testing.do_bench(
                    lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=0.5),
                    return_mode="median")
        return run
    raise SystemExit(f"ab-tile-run: unknown reference '{spec}'")


def tile_time(exe, cache, kernel, sets, extra):
    times = tempfile.mktemp(suffix=".times")
    args = [exe, kernel, "--no-check", "--times", times, *extra]
    for value in sets:
        args += ["--set", value]
    out = subprocess.run(args, capture_output=True, text=True, env=dict(os.environ, TILE_CACHE_DIR=cache))
    if out.returncode or not os.path.exists(times):
        sys.stdout.write(f"# {exe} {kernel} failed:\n" + "".join(
            "#   " + line + "\n" for line in (out.stdout + out.stderr).splitlines()[-10:]))
        return None
    with open(times) as f:
        values = [float(line.split()[0]) for line in f if line.strip() and not line.startswith("#")]
    os.unlink(times)
    return statistics.median(values) if values else None


def main():
    parser = argparse.ArgumentParser(description="A/B of two tile-run binaries")
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("cases", nargs="+")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--us", action="store_true", help="print microseconds, not milliseconds")
    parser.add_argument("--tile-run-arg", action="append", default=[], help="passed to every tile-run")
    args = parser.parse_args()
    cases = [parse_case(c) for c in args.cases]
    caches = {"old": tempfile.mkdtemp(), "new": tempfile.mkdtemp()}
    exes = {"old": args.old, "new": args.new}
    scale, unit = (1000.0, "us") if args.us else (1.0, "ms")
    status = 0
    for name, kernel, sets, ref_spec in cases:
        ref = reference(ref_spec) if ref_spec else None
        rows = {"old": [], "new": [], "ref": []}
        for r in range(args.rounds):
            for side in (("old", "new") if r % 2 == 0 else ("new", "old")):
                ms = tile_time(exes[side], caches[side], kernel, sets, args.tile_run_arg)
                if ms is None:
                    status = 1
                else:
                    rows[side].append(ms * scale)
            if ref:
                rows["ref"].append(ref() * scale)
        print(f"{name} ({unit}): " + "; ".join(
            f"{side} {', '.join(f'{x:.4g}' for x in values)} (median {statistics.median(values):.4g})"
            for side, values in rows.items() if values), flush=True)
    sys.exit(status)


if __name__ == "__main__":
    main()
