#!/usr/bin/env bash
# Sets up, builds and runs every test. The last line is "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh || { echo "0 passed, 1 failed"; exit 1; }
scripts/build.sh || { echo "0 passed, 1 failed"; exit 1; }
# ptxas, where the CUDA toolkit is installed, lets tests assemble our PTX.
[ -x /usr/local/cuda/bin/ptxas ] && export PATH=$PATH:/usr/local/cuda/bin
log=build/test-results.txt
/usr/lib/llvm-22/bin/lit -v build/test 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
python3 - "$log" <<'PY'
import re, sys
counts = {}
for line in open(sys.argv[1]):
    m = re.match(r"\s*(Passed|Failed|Unsupported|Expectedly Failed|Unexpectedly Passed|Unresolved|Timed Out)\s*:\s*(\d+)", line)
    if m:
        counts[m.group(1)] = int(m.group(2))
passed = counts.get("Passed", 0) + counts.get("Expectedly Failed", 0)
failed = sum(counts.get(k, 0) for k in ("Failed", "Unexpectedly Passed", "Unresolved", "Timed Out"))
if counts.get("Unsupported"):
    print(f"({counts['Unsupported']} unsupported here: they need ptxas or a GPU)")
print(f"{passed} passed, {failed} failed")
PY
exit $status
