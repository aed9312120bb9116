import sys, torch, triton
for s in [int(v) for v in sys.argv[1:]]:
    a = torch.randn(s, s, device="cuda", dtype=torch.float16); b = torch.randn(s, s, device="cuda", dtype=torch.float16)
    print(f"cuBLAS {s}^3 do_bench medians (us): " + ", ".join(f"{triton.testing.do_bench(lambda: a @ b, return_mode='median')*1000:.2f}" for _ in range(5)), flush=True)
