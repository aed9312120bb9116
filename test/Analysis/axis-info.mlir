// RUN: tile-opt %s -split-input-file -test-print-axis-info -verify-diagnostics -o /dev/null

// The vector-add offsets: pid * 1024 + arange(0, 1024), compared with an n
// specialized as divisible by 16.
// expected-remark @below {{arg 0: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @below {{arg 1: contiguity = [1], divisibility = [1], constancy = [1]}}
func.func @add_offsets(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) {
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %pid = tile.program_id 0 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1024], constancy = [1], constant = 1024}}
  %c1024 = arith.constant 1024 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1024], constancy = [1]}}
  %start = arith.muli %pid, %c1024 : i32
  // expected-remark @below {{contiguity = [1024], divisibility = [1073741824], constancy = [1]}}
  %range = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1024], constancy = [1024]}}
  %s = tile.splat %start : i32 -> tensor<1024xi32>
  // expected-remark @below {{contiguity = [1024], divisibility = [1024], constancy = [1]}}
  %offs = arith.addi %s, %range : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1024]}}
  %ns = tile.splat %n : i32 -> tensor<1024xi32>
  // Unknown n: the mask may change at any element.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1024]}}
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  // Offsets count f32 elements: 1024 elements are 4096 bytes; gcd with 16.
  // expected-remark @below {{contiguity = [1024], divisibility = [16], constancy = [1]}}
  %pp = tile.addptr %ps, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  return
}

// -----

// expected-remark @below {{arg 0: contiguity = [1], divisibility = [16], constancy = [1]}}
func.func @mask_with_divisible_bound(%n: i32 {tile.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [256], divisibility = [1073741824], constancy = [1]}}
  %range = tile.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [256]}}
  %ns = tile.splat %n : i32 -> tensor<256xi32>
  // A bound divisible by 16 flips the mask only at multiples of 16.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %mask = arith.cmpi slt, %range, %ns : tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1], constant = 8}}
  %c8 = arith.constant 8 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [256], constant = 8}}
  %c8s = tile.splat %c8 : i32 -> tensor<256xi32>
  // x % 8 keeps runs of 8.
  // expected-remark @below {{contiguity = [8], divisibility = [8], constancy = [1]}}
  %rem = arith.remsi %range, %c8s : tensor<256xi32>
  // Scaling a run breaks it; every element is then a multiple of 8.
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1]}}
  %mul = arith.muli %range, %c8s : tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %sub = arith.subi %c8s, %range : tensor<256xi32>
  return
}

// -----

// Which comparisons keep aligned runs: a run x0 + k against a bound R
// divisible by 16 flips at k = R - x0 for <, >= (aligned) but at R - x0 + 1
// for <=, > (not). With the run on the right the roles swap.
// expected-remark @below {{arg 0: contiguity = [1], divisibility = [16], constancy = [1]}}
func.func @comparison_alignment(%n: i32 {tile.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [256], divisibility = [1073741824], constancy = [1]}}
  %range = tile.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [256]}}
  %ns = tile.splat %n : i32 -> tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %lt = arith.cmpi slt, %range, %ns : tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %ge = arith.cmpi uge, %range, %ns : tensor<256xi32>
  // range <= n is true at range = n, one past a multiple of 16.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %le = arith.cmpi sle, %range, %ns : tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %gt = arith.cmpi sgt, %range, %ns : tensor<256xi32>
  // n > range is range < n; n <= range is range >= n.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %gtSwapped = arith.cmpi sgt, %ns, %range : tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %leSwapped = arith.cmpi ule, %ns, %range : tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %ltSwapped = arith.cmpi slt, %ns, %range : tensor<256xi32>
  // A scalar condition selects uniformly: two splats stay one run.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %c = arith.cmpi eq, %n, %n : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [256], constant = 0}}
  %zero = arith.constant dense<0> : tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [256]}}
  %sel = arith.select %c, %ns, %zero : tensor<256xi32>
  return
}

// -----

// A pointer cast keeps the addresses: between pointees of one size the whole
// of the information carries over; to a smaller pointee, contiguity (counted
// in elements) is lost and the byte divisibility kept.
// expected-remark @below {{arg 0: contiguity = [1], divisibility = [16], constancy = [1]}}
func.func @ptr_cast(%p: !tile.ptr<i1> {tile.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [256], divisibility = [1073741824], constancy = [1]}}
  %range = tile.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [256]}}
  %ps = tile.splat %p : !tile.ptr<i1> -> tensor<256x!tile.ptr<i1>>
  // expected-remark @below {{contiguity = [256], divisibility = [16], constancy = [1]}}
  %pp = tile.addptr %ps, %range : tensor<256x!tile.ptr<i1>>, tensor<256xi32>
  // expected-remark @below {{contiguity = [256], divisibility = [16], constancy = [1]}}
  %bytes = tile.ptr_cast %pp : tensor<256x!tile.ptr<i1>> -> tensor<256x!tile.ptr<i8>>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
  %words = tile.ptr_cast %pp : tensor<256x!tile.ptr<i1>> -> tensor<256x!tile.ptr<i32>>
  return
}

// -----

// Triton's test_vectorization_hints: offsets plus a loaded value are known
// only through tl.multiple_of and tl.max_contiguous (tile.divisibility and
// tile.contiguity on their op), which the analysis takes as Triton does;
// the mask against an n divisible by 16 is then constant in runs of 16.
// expected-remark @below {{arg 0: contiguity = [1], divisibility = [1], constancy = [1]}}
// expected-remark @below {{arg 1: contiguity = [1], divisibility = [16], constancy = [1]}}
func.func @hinted(%p: !tile.ptr<i32>, %n: i32 {tile.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [1024], divisibility = [1073741824], constancy = [1]}}
  %range = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %off = tile.load %p : !tile.ptr<i32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1024]}}
  %offs = tile.splat %off : i32 -> tensor<1024xi32>
  // expected-remark @below {{contiguity = [1024], divisibility = [1], constancy = [1]}}
  %plain = arith.addi %range, %offs : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1024], divisibility = [1024], constancy = [1]}}
  %hinted = arith.addi %range, %offs {tile.contiguity = array<i32: 1024>, tile.divisibility = array<i32: 1024>} : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1024]}}
  %ns = tile.splat %n : i32 -> tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %mask = arith.cmpi slt, %hinted, %ns : tensor<1024xi32>
  // A constancy hint on a scalar's block.
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [64]}}
  %runs = arith.muli %plain, %offs {tile.constancy = array<i32: 64>} : tensor<1024xi32>
  return
}
