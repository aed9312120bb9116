import sys, torch
s = int(sys.argv[1]); n = int(sys.argv[2]) if len(sys.argv) > 2 else 6
a = torch.randn(s, s, device="cuda", dtype=torch.float16); b = torch.randn(s, s, device="cuda", dtype=torch.float16)
for _ in range(n): c = a @ b
torch.cuda.synchronize()
