#!/usr/bin/env bash
# Sets up, builds and runs every test. The last line is "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh || { echo "0 passed, 1 failed"; exit 1; }
scripts/build.sh || { echo "0 passed, 1 failed"; exit 1; }
# The front-end fuzzer, where clang 14 and libFuzzer are installed: lit's
# fuzz/frontend-fuzzer.test runs it for 30 s (UNSUPPORTED without it). A
# failed build of it counts as one failed test.
fuzz_build_failed=0
if command -v clang++-14 >/dev/null &&
   ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  scripts/fuzz.sh build >build/fuzz-build.log 2>&1 ||
    { fuzz_build_failed=1; rm -f build-fuzz/bin/tile-frontend-fuzzer;
      echo "the fuzzer did not build: build/fuzz-build.log"; tail -20 build/fuzz-build.log; }
fi
# ptxas, where the CUDA toolkit is installed, lets tests assemble our PTX.
[ -x /usr/local/cuda/bin/ptxas ] && export PATH=$PATH:/usr/local/cuda/bin
log=build/test-results.txt
/usr/lib/llvm-22/bin/lit -v build/test 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
python3 - "$log" "$fuzz_build_failed" <<'PY'
import re, sys
counts = {}
for line in open(sys.argv[1]):
    m = re.match(r"\s*(Passed|Failed|Unsupported|Expectedly Failed|Unexpectedly Passed|Unresolved|Timed Out)\s*:\s*(\d+)", line)
    if m:
        counts[m.group(1)] = int(m.group(2))
passed = counts.get("Passed", 0) + counts.get("Expectedly Failed", 0)
failed = sum(counts.get(k, 0) for k in ("Failed", "Unexpectedly Passed", "Unresolved", "Timed Out"))
failed += int(sys.argv[2])
if counts.get("Unsupported"):
    print(f"({counts['Unsupported']} unsupported here: they need ptxas, a GPU or libFuzzer)")
print(f"{passed} passed, {failed} failed")
PY
[ "$fuzz_build_failed" = 0 ] || status=1
exit $status
