# WS matmul probe: matmul_tma.tile with WARP_SPECIALIZE True/False at several configs, cuBLAS beside; alternating.
import statistics, subprocess, sys, tempfile, torch, triton
def tile(sets):
    f = tempfile.mktemp()
    out = subprocess.run(["tile-run", "bench/results/matmul/2026-11-29/matmul-kernel-tma.tile", "--no-check", "--times", f] + sum((["--set", s] for s in sets), []),
                         capture_output=True, text=True)
    if out.returncode:
        print(out.stdout[-400:], out.stderr[-400:]); return float("nan")
    t = [float(l.split()[0]) for l in open(f) if l.strip() and not l.startswith("#")]
    return statistics.median(t) * 1000
def cublas(s):
    a = torch.randn(s, s, device="cuda", dtype=torch.float16); b = torch.randn(s, s, device="cuda", dtype=torch.float16)
    return triton.testing.do_bench(lambda: a @ b, return_mode="median") * 1000
cfgs = [(128, 64, 8, 4), (128, 64, 8, 8), (128, 128, 8, 4), (64, 128, 8, 6), (128, 256, 8, 4)]
for s in [1024, 2048, 4096]:
    rows = {}
    for r in range(2):
        for bm, bn, w, st in cfgs:
            for ws in ["True", "False"]:
                k = f"{bm}x{bn} w{w} s{st} ws={ws}"
                rows.setdefault(k, []).append(tile([f"M={s}", f"N={s}", f"K={s}", f"BLOCK_SIZE_M={bm}", f"BLOCK_SIZE_N={bn}",
                                                    f"num_warps={w}", f"num_stages={st}", f"WARP_SPECIALIZE={ws}"]))
        rows.setdefault("cuBLAS", []).append(cublas(s))
    print(f"S={s} us: " + "; ".join(f"{k} {', '.join(f'{x:.1f}' for x in v)}" for k, v in rows.items()), flush=True)
