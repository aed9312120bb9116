# How fine is the timing of a ~10 us kernel? Prints the distinct per-launch
# times do_bench collects (return_mode="all"), for Triton's softmax at small
# N over several do_bench calls, and for a spin kernel (torch.cuda._sleep)
# swept in small steps. With --order: in what order the two clusters of
# per-launch times come.
import collections, sys
from ptx_harness import triton_ref
lib = triton_ref()
import torch, triton


def dist(fn, label):
    t = triton.testing.do_bench(fn, return_mode="all")
    c = collections.Counter(round(v * 1000, 3) for v in t)  # microseconds
    top = ", ".join(f"{k:.3f}us x{n}" for k, n in sorted(c.most_common(6)))
    med = sorted(t)[len(t) // 2] * 1000
    print(f"{label}: {len(t)} samples, {len(c)} distinct, median {med:.3f}us; most common: {top}", flush=True)


# Splits a call's samples at the widest gap between distinct values (p5-p95) and
# counts the runs of consecutive samples on one side: about n/2 runs means
# the clusters interleave, a few long runs mean the GPU changed state (its
# clocks, say) during the call.
def order(fn, label):
    t = [v * 1000 for v in triton.testing.do_bench(fn, return_mode="all")]
    q = sorted(t)
    s = sorted(set(round(v, 3) for v in q[len(q) // 20: len(q) * 19 // 20]))  # without outliers
    gap, cut = max((b - a, (a + b) / 2) for a, b in zip(s, s[1:]))
    side = "".join("H" if v > cut else "L" for v in t)
    runs = 1 + sum(a != b for a, b in zip(side, side[1:]))
    print(f"{label}: cut {cut:.3f}us (gap {gap:.3f}), {side.count('L')} L / {side.count('H')} H, "
          f"{runs} runs; first 60: {side[:60]}", flush=True)


if "--order" in sys.argv:
    x = torch.randn(4096, 512, device="cuda")
    for r in range(3):
        order(lambda: lib.softmax(x), f"triton softmax N=512 call {r}")
        order(lambda: torch.cuda._sleep(8000), f"sleep 8000 call {r}")
    sys.exit()
for n in (256, 512):
    x = torch.randn(4096, n, device="cuda")
    for r in range(4):
        dist(lambda: lib.softmax(x), f"triton softmax N={n} call {r}")
for cycles in range(8000, 12001, 500):
    dist(lambda: torch.cuda._sleep(cycles), f"sleep {cycles} cycles")
