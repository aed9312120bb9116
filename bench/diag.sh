# Diagnostic (not part of the checks): Triton's softmax PTX and SASS next to
# Tile's, in one tarball under $OUT.
set -uo pipefail
out=${OUT:-/tmp}; d=$(mktemp -d)
OUT=$d python3 bench/triton_dump.py 2>&1 | grep -v Warn
for n in 781 1024 32768; do
  tile-run kernels/softmax_simple.tile --set n_rows=4096 --set n_cols=$n --emit=ptx > $d/tile_softmax_$n.ptx
  ptxas -arch=sm_90a -O3 $d/tile_softmax_$n.ptx -o $d/tile_$n.cubin && cuobjdump -sass $d/tile_$n.cubin > $d/tile_softmax_$n.sass
done
for f in ~/.triton/cache/*/softmax_kernel.cubin; do cuobjdump -sass $f > $d/triton_$(basename $(dirname $f)).sass; grep -o "n_cols\|BLOCK" /dev/null; done
ls ~/.triton/cache/*/ | head; for j in ~/.triton/cache/*/softmax_kernel.json; do echo "$j $(python3 -c "import json,sys;d=json.load(open('$j'));print(d.get('num_warps'), d.get('shared'), d.get('constants', ''))" 2>&1 | head -c 300)"; done
tar czf $out/diag.tgz -C $d .
