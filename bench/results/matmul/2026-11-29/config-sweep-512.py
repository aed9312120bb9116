import sys
sys.argv = sys.argv[:1]
exec(open("bench/results/matmul/2026-11-29/config-sweep.py").read().split("sweeps = {")[0])
sweeps = {512: [tma(64, 64, 128, 4, 4), tma(64, 64, 128, 4, 2), tma(64, 64, 128, 4, 3), tma(64, 64, 256, 4, 2),
                tma(64, 64, 64, 4, 8), tma(64, 64, 64, 4, 6), tma(128, 64, 64, 4, 4), tma(128, 64, 128, 4, 2),
                cp(64, 64, 64, 4, 4), cp(64, 64, 128, 4, 3), cp(64, 64, 64, 4, 6)]}
for s, variants in sweeps.items():
    rows = {}
    for r in range(5):
        for name, kern, sets in variants:
            rows.setdefault(name, []).append(tile(kern, sets + [f"M={s}", f"N={s}", f"K={s}"]))
        rows.setdefault("cuBLAS", []).append(cublas(s))
    print(f"== S={s} (us, 5 rounds; median TFLOP/s)")
    for n, v in sorted(rows.items(), key=lambda kv: __import__('statistics').median(kv[1])):
        print(f"  {n:28s} {', '.join(f'{x:.2f}' for x in v)}  ({2*s**3/__import__('statistics').median(v)/1e6:.1f})", flush=True)
