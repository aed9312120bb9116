import sys, torch
s = int(sys.argv[1])
a = torch.randn(s, s, device="cuda", dtype=torch.float16); b = torch.randn(s, s, device="cuda", dtype=torch.float16)
for _ in range(3): c = a @ b
torch.cuda.synchronize()
