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


# Splits a call's samples halfway between their 25th and 75th percentiles
# (one in each cluster when the two are about equally common) and counts the
# runs of consecutive samples on one side: about n/2 runs means the clusters
# alternate or interleave, a few long runs mean the GPU changed state (its
# clocks, say) during the call.
def order(fn, label):
    t = [v * 1000 for v in triton.testing.do_bench(fn, return_mode="all")]
    q = sorted(t)
    lo, hi = q[len(q) // 4], q[len(q) * 3 // 4]
    cut = (lo + hi) / 2
    side = "".join("H" if v > cut else "L" for v in t)
    runs = 1 + sum(a != b for a, b in zip(side, side[1:]))
    alternating = sum(a != b for a, b in zip(side, side[1:])) / max(1, len(side) - 1)
    print(f"{label}: p25 {lo:.3f}us p75 {hi:.3f}us, median {q[len(q) // 2]:.3f}us, {side.count('L')} L / "
          f"{side.count('H')} H, {runs} runs ({alternating:.0%} of steps switch); first 60: {side[:60]}", flush=True)


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
