# Grid-constant tensor maps, A/B on the attention forward's split (D 128): OLD and NEW tile-run alternating, 4 rounds.
import os, statistics, subprocess, sys, tempfile
OLD, NEW = sys.argv[1], sys.argv[2]
caches = {OLD: tempfile.mkdtemp(), NEW: tempfile.mkdtemp()}
def tile(exe, sets):
    f = tempfile.mktemp()
    out = subprocess.run([exe, "kernels/attn_fwd_descriptor.tile", "--no-check", "--times", f] + sum((["--set", s] for s in sets), []),
                         capture_output=True, text=True, env=dict(os.environ, TILE_CACHE_DIR=caches[exe]))
    if out.returncode:
        print(out.stdout[-300:], out.stderr[-300:]); return float("nan")
    return statistics.median(float(l.split()[0]) for l in open(f) if l.strip() and not l.startswith("#"))
split = ["HEAD_DIM=128", "BLOCK_M=128", "BLOCK_N=128", "num_warps=8", "num_stages=2", "warp_specialize_all=True", "Z=4", "H=32"]
for causal, n in [("False", 4096), ("False", 16384), ("False", 1024), ("True", 4096), ("True", 1024)]:
    rows = {"old": [], "new": []}
    for r in range(4):
        order = [("old", OLD), ("new", NEW)] if r % 2 == 0 else [("new", NEW), ("old", OLD)]
        for label, exe in order:
            rows[label].append(tile(exe, split + [f"N_CTX={n}", f"CAUSAL={causal}"]))
    flops = 4 * 4 * 32 * n * n * 128 * (0.5 if causal == "True" else 1)
    print(f"D128 split causal={causal} N_CTX={n} ms: " + "; ".join(f"{a} {', '.join(f'{x:.4f}' for x in v)} (median {statistics.median(v):.4f}, {flops / statistics.median(v) / 1e9:.1f} TFLOP/s)" for a, v in rows.items()), flush=True)
