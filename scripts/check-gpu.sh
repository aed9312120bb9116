#!/usr/bin/env bash
# The GPU checks run before a release, on the device machine: every kernel
# in kernels/ against its float64 reference with fresh random inputs, the
# GPU against the interpreter (--compare), the matmul's configurations and
# targets (wgmma, mma.sync on sm_80, tf32), the SASS that ptxas makes of
# them, and tile-run's GPU-only features (--info, the kernel cache,
# autotuning, --sweep). No timing comparisons: bench/run does those.
#
#   scripts/check-gpu.sh [SECTION...]     sections: add add-large softmax matmul mma-sync
#                                    tf32 scans ops random libdevice tutorials tools
#                                    (default: all of them)
#
# Prints one line per check and a count; exits 1 if any check failed.
#   bash .gpu/unpack.sh && export PATH=$PWD/.gpu/bin:$PATH && scripts/check-gpu.sh
set -uo pipefail
cd "$(dirname "$0")/.."
all="add add-large softmax matmul mma-sync tf32 scans ops random libdevice tutorials tools"
case "${1:-}" in -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0;; esac
for s in "$@"; do
  case " $all " in *" $s "*) ;; *) echo "scripts/check-gpu.sh: unknown section '$s' (sections: $all)" >&2; exit 1;; esac
done
command -v tile-run >/dev/null || { echo "scripts/check-gpu.sh: tile-run is not on the PATH" >&2; exit 1; }
nvidia-smi -L 2>/dev/null | grep -q GPU || { echo "scripts/check-gpu.sh: no NVIDIA GPU found (nvidia-smi -L lists none)" >&2; exit 1; }
export TILE_CACHE_DIR=$(mktemp -d)
tmp=$(mktemp -d)
log=$tmp/checks.log
: > "$log"
seed() { echo $RANDOM$RANDOM; }
# check LABEL tile-run-args...: one line with the check's verdict.
check() {
  local label=$1; shift
  local out rc
  out=$(tile-run "$@" --seed $(seed) --no-bench 2>&1); rc=$?
  local word=FAIL
  [ $rc -eq 0 ] && echo "$out" | grep -q '^check.*PASS$' && word=PASS
  echo "$word $label: $(echo "$out" | grep -E '^check|error' | head -2 | tr '\n' ' ')" | tee -a "$log"
}
# compare LABEL tile-run-args...: GPU against the interpreter.
compare() {
  local label=$1; shift
  local out; out=$(tile-run "$@" --compare 2>&1); local rc=$?
  # tile-run's notes (an autotune decorator it cannot read, say) quote the
  # word "error" without being one.
  local word=PASS; { [ $rc -ne 0 ] || echo "$out" | grep -v 'note:' | grep -qE 'FAIL|error'; } && word=FAIL
  echo "$word compare $label: $(echo "$out" | tail -1)" | tee -a "$log"
}
# sass LABEL PTX ARCH PATTERN: ptxas accepts the PTX and the SASS has PATTERN.
sass() {
  local label=$1 ptx=$2 arch=$3 pattern=$4
  if command -v ptxas >/dev/null && command -v cuobjdump >/dev/null; then
    if ptxas -arch=$arch $ptx -o $tmp/k.cubin 2>>$tmp/ptxas.log; then
      local n; n=$(cuobjdump -sass $tmp/k.cubin | grep -cE "$pattern")
      local word=PASS; [ "$n" -gt 0 ] || word=FAIL
      echo "$word sass $label: $n instructions matching $pattern" | tee -a "$log"
    else
      echo "FAIL sass $label: ptxas rejected the PTX ($(tail -1 $tmp/ptxas.log))" | tee -a "$log"
    fi
  else
    echo "skip sass $label: ptxas/cuobjdump not on the PATH"
  fi
}
cfg() { echo --set BLOCK_SIZE_M=$1 --set BLOCK_SIZE_N=$2 --set BLOCK_SIZE_K=$3 --set num_warps=$4 --set num_stages=$5; }
dims() { echo --set M=$1 --set N=$2 --set K=$3; }
K=kernels/matmul.tile

sec_add() {
  check "add n=98432" kernels/add.tile --set n=98432
  check "add n=2**27" kernels/add.tile --set 'n=2**27'
  compare add kernels/add.tile
  tile-run kernels/add.tile --emit=ptx -o $tmp/add.ptx
  local n; n=$(grep -c 'ld.global.v4' $tmp/add.ptx)
  local word=PASS; [ "$n" -gt 0 ] || word=FAIL
  echo "$word ptx add: $n 128-bit loads (ld.global.v4)" | tee -a "$log"
  sass "add sm_90a" $tmp/add.ptx sm_90a 'LDG'
}
# Past 2^31 elements: every offset, the grid and the check in 64 bits (fp32,
# 3 x 8 GiB on the GPU), written in the kernel (add_int64.tile) or not.
sec_add_large() {
  local big='--set n=2**31+1024 --set x_ptr=rand(fp32,n) --set y_ptr=rand(fp32,n) --set output_ptr=empty(fp32,n)'
  check "add n=2**31+1024 (int64 offsets, exact)" kernels/add_int64.tile $big
  # Tutorial 01's kernel unchanged: its int32 pid * BLOCK_SIZE would wrap;
  # Tile computes the offsets in 64 bits for this launch (tile-widen-offsets).
  check "add n=2**31+1024 (tutorial 01 unchanged, offsets widened, exact)" kernels/add.tile $big
}
sec_softmax() {
  check "softmax_simple 1823x781" kernels/softmax_simple.tile
  check "softmax (persistent) 1823x781" kernels/softmax.tile
  for n in 256 512 781 1024 2048 4096 8192 12288 32768; do
    check "softmax_simple 4096x$n" kernels/softmax_simple.tile --set n_rows=4096 --set n_cols=$n
  done
  compare softmax_simple kernels/softmax_simple.tile
  compare softmax kernels/softmax.tile
}
sec_matmul() {
  for shape in "256 256 256" "512 512 512" "513 257 129" "1000 1000 1000" "1024 1024 1024" "4096 1024 8192"; do
    check "matmul $shape" $K $(dims $shape)
    check "matmul $shape leaky_relu" $K $(dims $shape) --set 'ACTIVATION="leaky_relu"'
  done
  # Tile's split-K kernel: its last program per tile sums the others'
  # partials (an atomic count), and the counts return to 0.
  for shape in "512 512 512" "513 257 129" "1000 1000 1000" "1024 1024 1024"; do
    for sk in 1 2 4; do
      check "matmul split-K $shape SPLIT_K=$sk" kernels/matmul_split_k.tile $(dims $shape) --set SPLIT_K=$sk
    done
  done
  for c in "128 128 8 2" "64 256 8 2" "128 64 8 4" "64 128 4 4"; do
    set -- $c
    check "matmul split-K 1000^3 $c" kernels/matmul_split_k.tile $(dims 1000 1000 1000) \
      --set BLOCK_SIZE_M=$1 --set BLOCK_SIZE_N=$2 --set num_warps=$3 --set SPLIT_K=$4
  done
  for c in "128 256 64 8 2" "128 256 64 8 4" "64 256 32 4 4" "128 128 32 4 4" \
           "128 64 64 4 4" "128 256 128 8 3" "256 128 128 8 3" "64 128 64 4 4"; do
    check "matmul 1000^3 config $c" $K $(dims 1000 1000 1000) $(cfg $c)
  done
  compare matmul $K
  tile-run $K --emit=ptx -o $tmp/mm.ptx && sass "matmul wgmma" $tmp/mm.ptx sm_90a 'HGMMA.64x256x16.F32'
}
sec_mma_sync() {
  for shape in "512 512 512" "1000 1000 1000" "513 257 129"; do
    for c in "128 256 64 8 3" "64 256 32 4 4" "128 128 32 4 4" "64 32 32 2 5" "32 64 32 2 5"; do
      check "matmul sm_80 $shape config $c" $K --target=sm_80 $(dims $shape) $(cfg $c)
    done
    for c in "64 32 32 2 5" "32 64 32 2 5"; do
      check "matmul sm_90a two warps $shape config $c" $K $(dims $shape) $(cfg $c)
    done
  done
  check "matmul sm_80 leaky_relu 1000^3" $K --target=sm_80 $(dims 1000 1000 1000) --set 'ACTIVATION="leaky_relu"'
  check "matmul sm_80 bf16 512^3" $K --target=sm_80 --set 'a=randn(bf16,512,512)' --set 'b=randn(bf16,512,512)'
  check "matmul sm_80 4096x1024x8192" $K --target=sm_80 $(dims 4096 1024 8192)
  compare "matmul sm_80 256^3" $K --target=sm_80 $(dims 256 256 256)
  tile-run $K --target=sm_80 --emit=ptx -o $tmp/mm80.ptx && sass "matmul mma.sync" $tmp/mm80.ptx sm_80 'HMMA.16816.F32'
}
sec_tf32() {
  f32() { echo --set "a=randn(fp32,$1,$3)" --set "b=randn(fp32,$3,$2)" $(dims $1 $2 $3); }
  for shape in "512 512 512" "1000 1000 1000" "513 257 129"; do
    for c in "128 256 64 8 3" "128 256 32 8 3" "64 256 32 4 4" "128 128 32 4 4" "128 64 64 4 4" "32 64 32 2 5"; do
      check "matmul fp32 (tf32) $shape config $c" $K $(f32 $shape) $(cfg $c)
    done
  done
  check "matmul fp32 (tf32) leaky_relu 1000^3" $K $(f32 1000 1000 1000) --set 'ACTIVATION="leaky_relu"'
  compare "matmul fp32 (tf32) 256^3" $K $(f32 256 256 256)
  tile-run $K $(f32 512 512 512) --emit=ptx -o $tmp/tf32.ptx && sass "matmul tf32" $tmp/tf32.ptx sm_90a 'HGMMA.*TF32'
}
sec_scans() {
  check "cumsum" kernels/cumsum.tile
  check "cumsum n_rows=1000" kernels/cumsum.tile --set n_rows=1000
  check "associative_scan" kernels/associative_scan.tile
  check "associative_scan reverse" kernels/associative_scan.tile --set REVERSE=True
  check "argmax" kernels/argmax.tile
  check "argmax n_rows=999" kernels/argmax.tile --set n_rows=999
  compare "cumsum n_rows=1000" kernels/cumsum.tile --set n_rows=1000
  compare "argmax n_rows=999" kernels/argmax.tile --set n_rows=999
  compare associative_scan kernels/associative_scan.tile
}
sec_ops() {
  local out
  # Transposes (tl.trans, .T, tl.permute; tile sizes that do not divide the
  # shape), a transpose feeding a dot, join and split (with debug_barrier),
  # device_assert holding and failing, atomics, pointers through integers
  # and back, pointer casts, a table of pointers, device_print against the
  # interpreter, and inline asm.
  for how in trans T permute; do
    check "transpose $how" kernels/transpose.tile --set "HOW=\"$how\""
  done
  check "transpose 300x200" kernels/transpose.tile --set M=300 --set N=200
  check "transpose 8 warps, 128x64 tiles" kernels/transpose.tile --set num_warps=8 --set BLOCK_M=128 --set BLOCK_N=64
  compare "transpose" kernels/transpose.tile --set M=300 --set N=200
  check "dot of a double transpose" test/tools/tile-run/Inputs/dot-trans.tile
  check "join and split" test/tools/tile-run/Inputs/join-split.tile
  check "join and split n=100, BLOCK=64" test/tools/tile-run/Inputs/join-split.tile --set n=100 --set BLOCK=64
  compare "join and split" test/tools/tile-run/Inputs/join-split.tile
  check "reshape, ravel, view" test/tools/tile-run/Inputs/reshape.tile
  check "reshape, ravel, view (8 warps)" test/tools/tile-run/Inputs/reshape.tile --set num_warps=8
  compare "reshape" test/tools/tile-run/Inputs/reshape.tile
  out=$(tile-run test/tools/tile-run/Inputs/cat.tile --compare 2>&1)
  local word=FAIL
  grep -q 'GPU and interpreter agree exactly' <<<"$out" && word=PASS
  echo "$word compare cat: $(tail -1 <<<"$out")" | tee -a "$log"
  # fp8: every code of fp8e4nv/fp8e5/fp8e4b15 widened and fp32 sweeps
  # (8192 patterned values with ties, overflow, NaN; 2^20 random values
  # over 2^-24..2^15) narrowed each way, GPU against the interpreter exactly
  # (sm_90a, and sm_80 code without what sm_80 lacks); the quantize kernel.
  local fp8 args
  for args in "fp8-convert.tile" "fp8-convert.tile --target=sm_80 --set NATIVE=False" \
              "fp8-random.tile --seed $(seed)" "fp8-random.tile --seed $(seed) --target=sm_80 --set NATIVE=False"; do
    out=$(tile-run test/tools/tile-run/Inputs/$args --compare 2>&1)
    word=FAIL
    grep -q 'GPU and interpreter agree exactly' <<<"$out" && word=PASS
    echo "$word compare $args: $(grep -E '^compare|error' <<<"$out" | tr '\n' ' ')" | tee -a "$log"
  done
  check "fp8e5 and int8 bytes one per thread" test/tools/tile-run/Inputs/fp8-add.tile
  compare "fp8e5 and int8 bytes one per thread" test/tools/tile-run/Inputs/fp8-add.tile
  check "dropout with an i1 mask (single bytes)" test/tools/tile-run/Inputs/dropout.tile --set 'x_keep_ptr=rand(fp32, n) > p'
  check "fp8 quantize" kernels/fp8_quantize.tile
  check "fp8 quantize scale=1024, n=1000" kernels/fp8_quantize.tile --set scale=1024.0 --set n=1000
  check "device_assert that holds" test/tools/tile-run/Inputs/device-assert.tile
  out=$(tile-run test/tools/tile-run/Inputs/device-assert.tile --set LIMIT=0.5 --no-bench 2>&1)
  local rc=$? word=FAIL
  [ $rc -ne 0 ] && grep -q 'CUDA_ERROR_ASSERT' <<<"$out" && word=PASS
  echo "$word device_assert that fails: exit $rc, $(grep -m1 'Assertion' <<<"$out")" | tee -a "$log"
  # tl.device_print: the GPU's lines (vprintf) are the interpreter's, as
  # sets (the GPU prints in its threads' order, and an element once per
  # thread holding it), for 1 warp and for 4 (replicated blocks).
  local w
  for w in 1 4; do
    tile-run test/tools/tile-run/Inputs/print.tile --no-bench --set num_warps=$w > $tmp/print-gpu.txt 2>&1
    local rc=$?
    tile-run test/tools/tile-run/Inputs/print.tile --interpret --no-bench --set num_warps=$w > $tmp/print-cpu.txt 2>&1
    grep '^pid' $tmp/print-gpu.txt | sort -u > $tmp/print-gpu.sorted
    grep '^pid' $tmp/print-cpu.txt | sort -u > $tmp/print-cpu.sorted
    word=FAIL
    [ $rc -eq 0 ] && [ -s $tmp/print-cpu.sorted ] && cmp -s $tmp/print-gpu.sorted $tmp/print-cpu.sorted && word=PASS
    echo "$word device_print num_warps=$w: $(wc -l < $tmp/print-gpu.txt) GPU lines, $(wc -l < $tmp/print-gpu.sorted) distinct, $(wc -l < $tmp/print-cpu.sorted) in the interpreter" | tee -a "$log"
  done
  # tl.inline_asm_elementwise (Triton's test kernels, checked in the
  # kernel against plain operations), 2 and 8 registers per thread; then
  # the funnel shift and the packed bytes against numpy.
  check "inline_asm_elementwise" test/tools/tile-run/Inputs/inline-asm.tile
  check "inline_asm_elementwise BLOCK=1024" test/tools/tile-run/Inputs/inline-asm.tile --set BLOCK=1024
  check "inline_asm_elementwise n=1000, 8 warps" test/tools/tile-run/Inputs/inline-asm.tile --set n=1000 --set num_warps=8
  word=FAIL
  if tile-run test/tools/tile-run/Inputs/inline-asm.tile --no-bench --save f=$tmp/f.npy > $tmp/asm.txt 2>&1 &&
     python3 -c '
import numpy as np, sys
f = np.load(sys.argv[1]).astype(np.int64) & 0xffffffff
i = np.arange(f.size, dtype=np.int64)
x = (i * 40503 + 17) & 0xffffffff
w = (i * 7 - 1000) & 0xffffffff
ref = ((w << 5) | (x >> 27)) & 0xffffffff
sys.exit(0 if (f == ref).all() else 1)' $tmp/f.npy; then word=PASS; fi
  echo "$word inline_asm_elementwise funnel shift against numpy" | tee -a "$log"
  word=FAIL
  if tile-run test/tools/tile-run/Inputs/inline-asm-pointers.tile --no-bench --seed $(seed) --save x=$tmp/x.npy --save y=$tmp/y.npy > $tmp/asmp.txt 2>&1 &&
     python3 -c '
import numpy as np, sys
x = np.load(sys.argv[1]).astype(np.int64)
y = np.load(sys.argv[2]).astype(np.int64)
sys.exit(0 if (y == (x << 3) % 256).all() else 1)' $tmp/x.npy $tmp/y.npy; then word=PASS; fi
  echo "$word inline_asm_elementwise through pointers (impure) against numpy" | tee -a "$log"
  word=FAIL
  out=$(tile-run test/tools/tile-run/Inputs/inline-asm.tile --interpret --no-bench 2>&1)
  [ $? -ne 0 ] && grep -q 'cannot run in the interpreter' <<<"$out" && word=PASS
  echo "$word inline_asm_elementwise refused by the interpreter: $(grep -m1 -o 'error: .*' <<<"$out")" | tee -a "$log"
  check "atomics" test/tools/tile-run/Inputs/atomics.tile
  check "atomics R=7, BLOCK=64" test/tools/tile-run/Inputs/atomics.tile --set R=7 --set BLOCK=64
  out=$(tile-run test/tools/tile-run/Inputs/atomics.tile --compare 2>&1)
  local exact; exact=$(echo "$out" | grep -cE 'compare (fmax|fmin|isum|imax|bits|swapped|old): max \|gpu - interpreter\| 0.00e\+00')
  local word=PASS; [ "$exact" = 7 ] || word=FAIL
  echo "$word compare atomics: $exact of 7 order-independent results identical to the interpreter" | tee -a "$log"
  # Scalar atomics whose old value every thread uses (tickets, a spin lock),
  # 8- and 16-bit atomics (CAS loops).
  compare "scalar atomics (tickets, spin lock)" test/tools/tile-run/Inputs/atomics-scalar.tile
  compare "scalar atomics P=2000, 8 warps" test/tools/tile-run/Inputs/atomics-scalar.tile --set P=2000 --set num_warps=8
  check "8- and 16-bit atomics" test/tools/tile-run/Inputs/atomics-subword.tile
  compare "8- and 16-bit atomics" test/tools/tile-run/Inputs/atomics-subword.tile
  compare "8- and 16-bit scalar atomics, known results" test/Interpreter/Inputs/atomics-subword-values.tile
  check "store then load, cache operators" test/tools/tile-run/Inputs/memory-order.tile
  check "pointer casts" test/tools/tile-run/Inputs/pointer-casts.tile
  check "pointer casts n=1000" test/tools/tile-run/Inputs/pointer-casts.tile --set n=1000
  compare "pointer casts" test/tools/tile-run/Inputs/pointer-casts.tile
  check "pointer table" test/tools/tile-run/Inputs/pointer-table.tile
  compare "pointer table" test/tools/tile-run/Inputs/pointer-table.tile
  # Derived buffers and element-wise check references (launch expressions).
  check "derived buffers, expression references" test/tools/tile-run/Inputs/elementwise.tile
  compare "derived buffers" test/tools/tile-run/Inputs/elementwise.tile
  check "dropout, derived mask" test/tools/tile-run/Inputs/dropout.tile --set n=100000 --set p=0.3
  # Sorting networks (tl.sort, tl.topk, tl.flip), tl.gather and
  # tl.histogram through shared memory, tl.interleave, tl.swizzle2d and
  # tl.to_tensor.
  check "sort, topk, flip" test/tools/tile-run/Inputs/sort.tile
  check "sort, topk, flip (8 warps)" test/tools/tile-run/Inputs/sort.tile --set num_warps=8
  compare "sort, topk, flip" test/tools/tile-run/Inputs/sort.tile
  check "sort, topk of 1024 elements" test/tools/tile-run/Inputs/sort-large.tile
  check "sort, topk of 1024 elements (8 warps)" test/tools/tile-run/Inputs/sort-large.tile --set num_warps=8
  compare "sort, topk of 1024 elements" test/tools/tile-run/Inputs/sort-large.tile
  check "gather, histogram" test/tools/tile-run/Inputs/gather-histogram.tile
  check "gather, histogram (8 warps)" test/tools/tile-run/Inputs/gather-histogram.tile --set num_warps=8
  check "gather, histogram (1 warp)" test/tools/tile-run/Inputs/gather-histogram.tile --set num_warps=1
  compare "gather, histogram" test/tools/tile-run/Inputs/gather-histogram.tile
  compare "interleave, swizzle2d, to_tensor" test/tools/tile-run/Inputs/interleave-swizzle.tile
  # The same builtins against Triton itself, bit for bit (NaNs, -0.0, ties).
  local out rc word
  if python3 -c 'import triton, torch' 2>/dev/null; then
    out=$(python3 scripts/triton-parity.py 2>&1); rc=$?
    word=PASS; [ $rc -eq 0 ] || word=FAIL
    echo "$word triton parity: $(grep -c '^PASS' <<<"$out") of 7 outputs identical to Triton's $(grep -m1 -E '^FAIL|Error' <<<"$out")" | tee -a "$log"
  else
    echo "skip triton parity: python3 cannot import triton and torch"
  fi
}
# Triton's tutorial kernels, their text unchanged (kernels/), each against its
# independent reference: float64 on the CPU, or PyTorch for attention.
sec_tutorials() {
  # Tutorial 05: the three layer-norm kernels, then chained as its LayerNorm
  # runs them (the dx kernel's partial sums go through spin locks).
  check "layer norm forward (tutorial 05)" kernels/layer_norm_fwd.tile
  check "layer norm forward N=300" kernels/layer_norm_fwd.tile --set M=4096 --set N=300
  check "layer norm backward dx (spin locks)" kernels/layer_norm_bwd_dx.tile
  check "layer norm backward dx N=2000" kernels/layer_norm_bwd_dx.tile --set M=3000 --set N=2000
  check "layer norm backward dwdb" kernels/layer_norm_bwd_dwdb.tile
  local ln=$tmp/ln; mkdir -p $ln
  tile-run kernels/layer_norm_fwd.tile --no-bench --save x=$ln/x.npy --save weight=$ln/w.npy --save mean=$ln/m.npy --save rstd=$ln/r.npy >/dev/null 2>&1
  check "layer norm dx on the forward's mean and rstd" kernels/layer_norm_bwd_dx.tile --input x=$ln/x.npy --input weight=$ln/w.npy --input mean=$ln/m.npy --input rstd=$ln/r.npy --save _dw=$ln/dw.npy --save _db=$ln/db.npy
  check "layer norm dwdb on the dx kernel's partial sums" kernels/layer_norm_bwd_dwdb.tile --input _dw=$ln/dw.npy --input _db=$ln/db.npy
  check "grouped GEMM (tutorial 08)" kernels/grouped_gemm.tile
  check "matmul_kernel (tutorial 09) 1100x900x700" kernels/matmul_09.tile
  check "matmul_kernel (tutorial 09) 2048^3" kernels/matmul_09.tile $(dims 2048 2048 2048)
  check "matmul_kernel_persistent (tutorial 09) 1100x900x700" kernels/matmul_persistent.tile
  check "matmul_kernel_persistent (tutorial 09) 2048^3" kernels/matmul_persistent.tile $(dims 2048 2048 2048)
  compare "matmul_kernel_persistent 300x200x100" kernels/matmul_persistent.tile $(dims 300 200 100)
  # Tensor descriptors made on the device (tl.make_tensor_descriptor).
  check "grouped GEMM through tensor descriptors (tutorial 08)" kernels/grouped_gemm_tma.tile
  check "matmul_kernel_descriptor_persistent (tutorial 09) 1100x904x712" kernels/matmul_descriptor_persistent.tile
  check "matmul_kernel_descriptor_persistent EPILOGUE_SUBTILE" kernels/matmul_descriptor_persistent.tile --set EPILOGUE_SUBTILE=True
  check "matmul_kernel_descriptor_persistent 2048^3" kernels/matmul_descriptor_persistent.tile $(dims 2048 2048 2048)
  compare "matmul_kernel_descriptor_persistent 300x200x104" kernels/matmul_descriptor_persistent.tile $(dims 300 200 104)
  # Tensor descriptors made on the host.
  check "matmul_kernel_tma_persistent (tutorial 09) 1100x904x712" kernels/matmul_tma_persistent.tile
  check "matmul_kernel_tma_persistent 2048^3 EPILOGUE_SUBTILE" kernels/matmul_tma_persistent.tile $(dims 2048 2048 2048) --set EPILOGUE_SUBTILE=True
  # Tutorial 06's forward as Triton 3.6 writes it: D 64 and 128, causal and not.
  local c
  for c in False True; do
    check "attention forward (tutorial 06) D=64 causal=$c" kernels/attn_fwd_descriptor.tile --set Z=1 --set H=2 --set N_CTX=1024 --set CAUSAL=$c
    check "attention forward D=128 causal=$c, 8 warps" kernels/attn_fwd_descriptor.tile --set Z=1 --set H=2 --set N_CTX=1024 --set HEAD_DIM=128 --set BLOCK_N=128 --set num_warps=8 --set CAUSAL=$c
    # The older block-pointer text, whose causal mask is a runtime `if`.
    check "attention forward, block pointers, D=64 causal=$c" kernels/attn_fwd.tile --set Z=1 --set H=2 --set N_CTX=1024 --set CAUSAL=$c
  done
  local out rc word
  if python3 -c 'import torch, numpy' 2>/dev/null; then
    out=$(python3 scripts/check-attention-bwd.py --tile-run "$(command -v tile-run)" 2>&1); rc=$?
    echo "$out" | grep -E '^(PASS|FAIL)' | sed 's/^/  /'
    word=PASS; [ $rc -eq 0 ] || word=FAIL
    echo "$word attention backward (tutorial 06) against PyTorch: $(echo "$out" | tail -1)" | tee -a "$log"
  else
    echo "FAIL attention backward: needs python3 with torch and numpy" | tee -a "$log"
  fi
}
sec_random() {
  # Tutorial 04's dropout kernels; seeded dropout's reference runs its own
  # Philox, so it checks tl.rand on the GPU against Triton's algorithm. The
  # RNG kernel against the interpreter: the integer words and the uniforms
  # exactly, the normals within the approximate lg2/sin/cos (1e-4).
  check "dropout" kernels/dropout.tile
  check "seeded_dropout" kernels/seeded_dropout.tile
  check "seeded_dropout seed=-7 p=0.3" kernels/seeded_dropout.tile --set seed=-7 --set p=0.3
  check "seeded_dropout seed=2**40+5 n=2**24" kernels/seeded_dropout.tile --set 'seed=2**40+5' --set 'n=2**24'
  compare seeded_dropout kernels/seeded_dropout.tile
  local out exact close
  out=$(tile-run test/tools/tile-run/Inputs/random.tile --compare 2>&1)
  exact=$(echo "$out" | grep -cE 'compare (words|ints|ints64|ints7|unif|unif4): max \|gpu - interpreter\| 0.00e\+00,')
  close=$(echo "$out" | grep -cE 'compare (norm|norm4): max \|gpu - interpreter\| ([0-9.]+e-(0[5-9]|[1-9][0-9])|0.00e\+00),.* 0 NaN mismatches')
  local word=PASS; [ "$exact" = 6 ] && [ "$close" = 2 ] || word=FAIL
  echo "$word compare random: $exact of 6 integer/uniform outputs identical, $close of 2 normal outputs within 1e-4" | tee -a "$log"
}
sec_libdevice() {
  # libdevice.X through CUDA's libdevice (tutorial 07's asin, fp32 and fp64
  # functions), then Tile's own fp32 implementations (TILE_LIBDEVICE=none),
  # and their error in ulp against float64, side by side.
  check "asin (tutorial 07)" kernels/asin.tile
  check "libdevice fp32" test/tools/tile-run/Inputs/libdevice-f32.tile
  check "libdevice fp64" test/tools/tile-run/Inputs/libdevice-f64.tile
  export TILE_LIBDEVICE=none
  check "asin, own implementation" kernels/asin.tile
  check "fp32, own implementations" test/tools/tile-run/Inputs/libdevice-f32.tile
  unset TILE_LIBDEVICE
  python3 scripts/libdevice-ulp.py --n 262144 | tee -a $tmp/ulp.txt
}
sec_tools() {
  # --info on the GPU, text and JSON.
  local word=PASS
  tile-run kernels/softmax.tile --info > $tmp/info.txt 2>&1 && grep -q 'occupancy:' $tmp/info.txt || word=FAIL
  echo "$word --info: $(grep -m1 'registers:' $tmp/info.txt)" | tee -a "$log"
  word=PASS
  tile-run $K --info=json > $tmp/info.json 2>&1 && python3 -c "import json,sys; json.load(open(sys.argv[1]))['occupancy']" $tmp/info.json || word=FAIL
  echo "$word --info=json parses" | tee -a "$log"
  # The kernel cache: a cold compile, a warm hit, a corrupted cubin rebuilt.
  local c; c=$(mktemp -d)
  TILE_CACHE_DIR=$c tile-run kernels/add.tile --no-bench > $tmp/cold.txt 2>&1
  TILE_CACHE_DIR=$c tile-run kernels/add.tile --no-bench > $tmp/warm.txt 2>&1
  word=PASS; grep -q '^cold compile' $tmp/cold.txt && grep -q '^cache hit' $tmp/warm.txt || word=FAIL
  echo "$word cache: cold then warm ($(grep -oE '^cache hit[^:]*: [0-9.]+ ms' $tmp/warm.txt))" | tee -a "$log"
  local f; f=$(ls $c/kernels/*.cubin 2>/dev/null | head -1)
  [ -n "$f" ] && printf 'X' | dd of=$f bs=1 seek=200 conv=notrunc 2>/dev/null
  word=PASS
  TILE_CACHE_DIR=$c tile-run kernels/add.tile --no-bench > $tmp/corrupt.txt 2>&1 && grep -q 'corrupt' $tmp/corrupt.txt || word=FAIL
  echo "$word cache: a corrupted cubin is detected and rebuilt" | tee -a "$log"
  # Autotuning: tune, then the cached choice.
  word=PASS
  TILE_CACHE_DIR=$c tile-run $K --autotune --no-bench > $tmp/tune1.txt 2>&1 && grep -q 'autotune: best config' $tmp/tune1.txt || word=FAIL
  TILE_CACHE_DIR=$c tile-run $K --autotune --no-bench > $tmp/tune2.txt 2>&1 && grep -q 'autotune: cached choice' $tmp/tune2.txt || word=FAIL
  echo "$word autotune: $(grep -m1 -oE 'best config [0-9]+/[0-9]+' $tmp/tune1.txt), then the cached choice" | tee -a "$log"
  # --times and --summarize-times agree.
  word=PASS
  tile-run kernels/add.tile --times $tmp/times.txt > $tmp/run.txt 2>&1 && tile-run --summarize-times $tmp/times.txt > $tmp/sum.txt 2>&1 || word=FAIL
  echo "$word --times / --summarize-times: $(head -1 $tmp/sum.txt)" | tee -a "$log"
  # A sweep writes its CSV.
  word=PASS
  tile-run kernels/softmax_simple.tile --set n_rows=4096 --sweep n_cols=256..8192*2 --csv $tmp/sweep.csv --rep-ms 50 > $tmp/sweep.txt 2>&1 \
    && [ "$(grep -c PASS $tmp/sweep.csv)" -eq 6 ] || word=FAIL
  echo "$word --sweep: $(grep -c PASS $tmp/sweep.csv 2>/dev/null) of 6 values PASS in the CSV" | tee -a "$log"
  rm -rf $c
}

nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for s in ${*:-$all}; do
  echo "== $s"
  sec_${s//-/_}
done
pass=$(grep -c '^PASS' "$log"); fail=$(grep -c '^FAIL' "$log")
echo "== $pass PASS, $fail FAIL"
rm -rf "$tmp" "$TILE_CACHE_DIR"
[ "$fail" -eq 0 ]
