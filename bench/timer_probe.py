# How fine is the timing of a ~10 us kernel? Prints the distinct per-launch
# times do_bench collects (return_mode="all"), for Triton's softmax at small
# N over several do_bench calls, and for a spin kernel (torch.cuda._sleep)
# swept in small steps: a staircase means the event timer is quantized.
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

for n in (256, 512):
    x = torch.randn(4096, n, device="cuda")
    for r in range(4):
        dist(lambda: lib.softmax(x), f"triton softmax N={n} call {r}")
for cycles in range(8000, 12001, 500):
    dist(lambda: torch.cuda._sleep(cycles), f"sleep {cycles} cycles")
