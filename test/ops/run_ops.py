#!/usr/bin/env python3
#===- run_ops.py - run the op suite in the interpreter or on the GPU -----===#
#
# Runs the cases of gen_ops.py through tile-run and compares every output
# with the Python reference:
#
#   run_ops.py --cpu [--tile-run PATH]   the interpreter (CI, one lit test)
#   run_ops.py --gpu [--tile-run PATH]   the GPU (--compare: the GPU's
#                                        results against the reference and
#                                        against the interpreter)
#
# Several batches of cases share one kernel (tile-run's start-up
# dominates); a kernel that fails to run is retried one batch at a time,
# then in halves, down to the cases that fail alone. A case that expects a diagnostic runs alone and passes when
# tile-run exits 1 with an error at the case's line. Known failures are
# listed in XFAIL with their reasons; one that passes is reported. Prints
# `N passed, N failed, N expected-error` and exits 1 if any case failed.
# Python 3 standard library only.
#
#===----------------------------------------------------------------------===#

import argparse
import fnmatch
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from dtypes import read_values, ulp  # noqa: E402
from gen_ops import all_batches  # noqa: E402
from kernels import Batch, merge_batches, write_batch  # noqa: E402

# Known failures: case-name pattern -> (modes, why): a Tile bug or a
# divergence from Triton that is not fixed yet. Keep it honest: a listed
# case that passes in one of its modes fails the run.
_NOT = ("Tile takes `not x` on a non-bool block as x == 0; Triton's not_ "
        "bitcasts x to int1 and rejects other widths")
_ATOMIC_NARROW = ("Tile runs 8- and 16-bit integer atomics (CAS loops on "
                  "the GPU) that Triton rejects (atom_red_typechecking_impl; "
                  "atomic_cas takes 16, 32 and 64 bits)")
_ATOMIC_HALF = ("Tile runs fp16/bf16 atomics other than add (xchg on the GPU "
                "too); Triton rejects them")
_CLAMP = ("Tile takes tl.clamp on integers (maximum, then minimum; "
          "test/Frontend/math.tile); Triton's clamp raises for non-floats")
_WIDEN = ("Tile widens a block for an int literal that does not fit it "
          "(docs/language.md); Triton 3 raises 'Scalar ... is out of range "
          "for type' (binary_op_type_checking_impl)")
_NEGATIVE = ("Tile takes a negative int literal with an unsigned block; "
             "Triton 3 raises (binary_op_type_checking_impl: an unsigned "
             "tensor and a negative scalar)")
ALL_MODES = ("cpu", "gpu", "ptx")
XFAIL = {
    "scalar/add300/[iu]8/*": (ALL_MODES, _WIDEN),
    "scalar/sub-3/u*/*": (ALL_MODES, _NEGATIVE),
    "unary/clamp/[iu]*/*": (ALL_MODES, _CLAMP),
    "unary/not/[!i]*/*": (ALL_MODES, _NOT),
    "unary/not/i[!1]*/*": (ALL_MODES, _NOT),
    "atomic/*/[iu]8/*": (ALL_MODES, _ATOMIC_NARROW),
    "atomic/[!c]*/[iu]16/*": (ALL_MODES, _ATOMIC_NARROW),
    "atomic/[!a]*/fp16/*": (("cpu",), _ATOMIC_HALF),
    "atomic/[!a]*/bf16/*": (("cpu",), _ATOMIC_HALF),
    "atomic/xchg/fp16/*": (("gpu", "ptx"), _ATOMIC_HALF),
    "atomic/xchg/bf16/*": (("gpu", "ptx"), _ATOMIC_HALF),
}

# On the GPU (--gpu, --ptx), a case whose kernel alone fails to compile with
# one of these diagnostics counts as not supported on the GPU yet (reported
# with the diagnostic, not a failure); docs/language.md lists them.
UNSUPPORTED_MESSAGES = ("not supported on the GPU yet", "is not supported yet",
                        "elements is not supported")


def xfail_reason(name, mode):
    for pattern, (modes, why) in XFAIL.items():
        if mode in modes and fnmatch.fnmatchcase(name, pattern):
            return why
    return None


class Result:
    def __init__(self, case, status, detail="", command=None):
        self.case = case
        # pass, fail, error-ok, xfail, xpass, unsupported
        self.status = status
        self.detail = detail
        self.command = command


def check_values(check, got):
    """None if got matches the check, else a description of the first
    mismatches."""
    bad = []
    dt = check.dt
    for i, (want, have) in enumerate(zip(check.values, got)):
        if want is None:
            continue
        if dt.is_float:
            atol = check.atol[i] if isinstance(check.atol, list) else check.atol
            if math.isnan(want):
                ok = math.isnan(have)
            elif math.isinf(want):
                ok = have == want
            else:
                ok = (not math.isnan(have) and
                      abs(have - want) <= check.ulps * ulp(want, dt) + atol)
        else:
            ok = have == want
        if not ok:
            bad.append(i)
    if len(got) != len(check.values):
        return "%d values, expected %d" % (len(got), len(check.values))
    if not bad:
        return None
    i = bad[0]
    return "%d of %d elements differ; first at %d: got %r, expected %r" % (
        len(bad), len(got), i, got[i], check.values[i])


def max_allowed(check):
    """The largest error the check allows anywhere (for --compare)."""
    if not check.dt.is_float:
        return 0.0
    worst = 0.0
    for i, want in enumerate(check.values):
        if want is None or math.isnan(want) or math.isinf(want):
            continue
        atol = check.atol[i] if isinstance(check.atol, list) else check.atol
        worst = max(worst, check.ulps * ulp(want, check.dt) + atol)
    return worst


def parse_compare(stdout):
    """compare lines: buffer -> (max |gpu - interpreter|, NaN mismatches)."""
    out = {}
    for line in stdout.splitlines():
        if not line.startswith("compare ") or ":" not in line:
            continue
        name, rest = line[len("compare "):].split(":", 1)
        try:
            diff = float(rest.split("max |gpu - interpreter|")[1].split(",")[0])
            nans = int(rest.split("max rel")[1].split(",")[1].split()[0])
        except (IndexError, ValueError):
            continue
        out[name.strip()] = (diff, nans)
    return out


class Runner:
    def __init__(self, args, workdir):
        self.args = args
        self.workdir = workdir

    def command(self, path, extra):
        cmd = [self.args.tile_run, path]
        if self.args.mode == "ptx":
            return cmd + ["--emit=ptx", "-o", path[:-len(".tile")] + ".ptx"]
        cmd += ["--interpret"] if self.args.mode == "cpu" else \
            ["--compare", "--no-bench"]
        return cmd + extra

    def run(self, cmd):
        try:
            p = subprocess.run(cmd, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True,
                               timeout=self.args.timeout)
            return p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired:
            return -1, "", "timed out after %d s" % self.args.timeout

    def run_cases(self, batch, cases, tag):
        """Run cases in one kernel; a list of Results, or None if tile-run
        failed (exit status, crash) so that the caller can split them."""
        directory = os.path.join(self.workdir, batch.name.replace("/", "_") +
                                 tag)
        path, inputs, _ = write_batch(directory, batch, cases)
        saves = []
        for c in cases:
            for buf, _, _, _ in c.outputs:
                saves += ["--save", "%s=%s" % (
                    buf, os.path.join(directory, "out_" + buf + ".npy"))]
        cmd = self.command(path, inputs + saves)
        rc, stdout, stderr = self.run(cmd)
        if rc == 0 and self.args.mode == "ptx":
            ptx = path[:-len(".tile")] + ".ptx"
            rc, stdout, stderr = self.run([self.args.ptxas, "-arch=sm_90a",
                                           ptx, "-o", ptx + ".cubin"])
            if rc == 0:
                return [Result(c, "pass") for c in cases], 0, ""
            stderr = "ptxas: " + stderr
        if rc != 0:
            return None, rc, stdout + stderr
        compare = parse_compare(stdout) if self.args.mode == "gpu" else {}
        results = []
        for c in cases:
            problems = []
            for buf, dt, _, check in c.outputs:
                got, _ = read_values(
                    os.path.join(directory, "out_" + buf + ".npy"), dt)
                problem = check_values(check, got)
                if problem:
                    problems.append("%s: %s" % (buf, problem))
                if buf in compare:
                    diff, nans = compare[buf]
                    if nans or diff > 2 * max_allowed(check):
                        problems.append(
                            "%s: GPU vs interpreter: max |diff| %g, %d NaN "
                            "mismatches" % (buf, diff, nans))
            results.append(Result(c, "fail" if problems else "pass",
                                  "; ".join(problems)))
        return results, 0, ""

    def run_error_case(self, batch, case):
        directory = os.path.join(self.workdir, case_dir(case))
        path, inputs, starts = write_batch(directory, batch, [case])
        rc, stdout, stderr = self.run(self.command(path, inputs))
        where = "%s:%d:" % (path, starts[0])
        ok = rc == 1 and where in stderr and "error:" in stderr and \
            case.error in stderr
        detail = "" if ok else \
            "expected a diagnostic at line %d; exit %d: %s" % (
                starts[0], rc, first_line(stderr) or first_line(stdout))
        return Result(case, "error-ok" if ok else "fail", detail)

    def run_unit(self, unit):
        kind, payload = unit
        if kind == "error":
            batch, case = payload
            return [self.run_error_case(batch, case)]
        return self.run_group(payload)

    def run_group(self, batches):
        """Run the cases of several batches in one kernel; if tile-run fails,
        each batch alone, and then each case alone."""
        if len(batches) == 1:
            batch = batches[0]
        else:
            batch = merge_batches(batches[0].name + "+%d" % (len(batches) - 1),
                                  batches[0].family, batches)
        got, rc, output = self.run_cases(batch, batch.cases, "")
        if got is not None:
            return got
        if len(batches) > 1:
            return [r for b in batches for r in self.run_group([b])]
        if len(batch.cases) == 1:
            return [self.failed(batch.cases[0], rc, output)]
        return self.bisect(batch, batch.cases)

    def bisect(self, batch, cases):
        """Run the halves of cases that failed together, down to the cases
        that fail alone."""
        half = len(cases) // 2
        results = []
        for part in (cases[:half], cases[half:]):
            tag = "_" + case_dir(part[0]) + "_%d" % len(part)
            got, rc, output = self.run_cases(batch, part, tag)
            if got is not None:
                results += got
            elif len(part) == 1:
                results.append(self.failed(part[0], rc, output))
            else:
                results += self.bisect(batch, part)
        return results

    def failed(self, case, rc, output):
        """The result of a case whose kernel alone did not run."""
        message = first_line(output)
        if self.args.mode != "cpu" and rc == 1 and any(
                m in message for m in UNSUPPORTED_MESSAGES):
            return Result(case, "unsupported", message.split("error: ")[-1])
        return Result(case, "fail", "tile-run exit %d: %s" % (rc, message))


def work_units(batches, mode, batch_size, all_errors):
    """Split the batches into what the pool runs: groups of batches of one
    family (at most batch_size cases a kernel) and diagnostic cases alone.
    Known failures run one case per kernel, so that a crash there costs no
    retries."""
    units, omitted = [], 0
    groups = {}
    seen_errors = set()
    for b in batches:
        keep = []
        for c in b.cases:
            if c.error is not None:
                key = error_key(c.name)
                if all_errors or key not in seen_errors:
                    seen_errors.add(key)
                    units.append(("error", (b, c)))
                else:
                    omitted += 1
            elif xfail_reason(c.name, mode) is not None:
                alone = Batch(b.name + "/" + case_dir(c), b.family)
                alone.inputs, alone.loads, alone.prelude = \
                    b.inputs, b.loads, b.prelude
                alone.cases = [c]
                units.append(("group", [alone]))
            else:
                keep.append(c)
        if keep:
            part = Batch(b.name, b.family)
            part.inputs, part.loads, part.prelude = b.inputs, b.loads, b.prelude
            part.num_warps = b.num_warps
            part.cases = keep
            groups.setdefault(b.family, []).append(part)
    for family, parts in groups.items():
        chunk, size = [], 0
        for p in parts:
            if chunk and size + len(p.cases) > batch_size:
                units.append(("group", chunk))
                chunk, size = [], 0
            chunk.append(p)
            size += len(p.cases)
        if chunk:
            units.append(("group", chunk))
    return units, omitted


def error_key(name):
    """Diagnostic cases that test the same rule: the op and the kinds of its
    dtypes (int, uint, half float, float), whatever the shape."""
    parts = name.split("/")
    kinds = []
    for d in parts[2].replace("-", ",").split(",") if len(parts) > 2 else []:
        kinds.append("int" if d.startswith("i") else "uint" if d.startswith("u")
                     else "half" if d in ("fp16", "bf16") else "float")
    return (parts[0], parts[1], tuple(kinds))


def case_dir(case):
    return case.name.replace("/", "_").replace(",", "_")


def first_line(text):
    for line in text.splitlines():
        if "error" in line or "FAIL" in line:
            return line.strip()
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[0].strip() if lines else ""


def main():
    parser = argparse.ArgumentParser(
        description="Run the op suite (test/ops) through tile-run.")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--cpu", dest="mode", action="store_const", const="cpu",
                      help="run in tile-run's interpreter")
    mode.add_argument("--gpu", dest="mode", action="store_const", const="gpu",
                      help="run on the GPU, with --compare")
    mode.add_argument("--ptx", dest="mode", action="store_const", const="ptx",
                      help="no run: compile each kernel to PTX and assemble "
                      "it with ptxas (the GPU path without a GPU)")
    parser.add_argument("--ptxas", default="ptxas",
                        help="ptxas for --ptx (default: on the PATH, else "
                        "/usr/local/cuda/bin/ptxas)")
    parser.add_argument("--tile-run", default=None,
                        help="tile-run to use (default: on the PATH, else "
                        "build/bin/tile-run)")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--case", action="append", default=[],
                        help="only cases matching this glob (repeatable)")
    parser.add_argument("--family", action="append", default=[],
                        help="only these families (unary, binary, cast, "
                        "reduce, scan, shape, memory, atomic, dot)")
    parser.add_argument("--keep", metavar="DIR",
                        help="write the kernels and .npy files here and keep "
                        "them")
    parser.add_argument("--list", action="store_true",
                        help="list the cases and exit")
    parser.add_argument("--timeout", type=int, default=120)
    parser.add_argument("--batch-size", type=int, default=150,
                        help="most cases in one kernel")
    parser.add_argument("--all-errors", action="store_true",
                        help="--cpu: every diagnostic case, not one per op "
                        "and kind of dtype (--gpu and --case run them all)")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="print every case's result")
    args = parser.parse_args()

    if args.tile_run is None:
        here = os.path.dirname(os.path.abspath(__file__))
        built = os.path.join(here, "..", "..", "build", "bin", "tile-run")
        args.tile_run = shutil.which("tile-run") or os.path.normpath(built)

    if shutil.which(args.tile_run) is None:
        print("run_ops.py: no tile-run at '%s' (--tile-run PATH)" %
              args.tile_run, file=sys.stderr)
        return 2
    args.tile_run = shutil.which(args.tile_run)
    if args.mode == "ptx":
        args.ptxas = shutil.which(args.ptxas) or \
            shutil.which("/usr/local/cuda/bin/ptxas")
        if args.ptxas is None:
            print("run_ops.py: --ptx needs ptxas (--ptxas PATH)",
                  file=sys.stderr)
            return 2

    start = time.time()
    batches = all_batches()
    for b in batches:
        if args.case:
            b.cases = [c for c in b.cases
                       if any(fnmatch.fnmatchcase(c.name, p) for p in args.case)]
        if args.family and b.family not in args.family:
            b.cases = []
    batches = [b for b in batches if b.cases]
    if args.list:
        for b in batches:
            for c in b.cases:
                print(c.name + ("  (expects a diagnostic)"
                                if c.error is not None else ""))
        return 0

    workdir = args.keep or tempfile.mkdtemp(prefix="tile-ops-")
    os.makedirs(workdir, exist_ok=True)
    runner = Runner(args, workdir)
    results = []
    units, omitted = work_units(batches, args.mode, args.batch_size,
                                args.all_errors or args.mode != "cpu" or
                                bool(args.case))
    # Biggest kernels first, so that the pool ends evenly.
    units.sort(key=lambda u: -sum(len(b.cases) for b in u[1])
               if u[0] == "group" else 0)
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results += [r for rs in pool.map(runner.run_unit, units) for r in rs]

    counts = {}
    failed = []
    for r in results:
        why = xfail_reason(r.case.name, args.mode)
        if why is not None:
            if r.status == "fail":
                r.status, r.detail = "xfail", why
            else:
                r.status, r.detail = "xpass", "listed in XFAIL (%s) but " \
                    "passes: remove it from the list" % why
        counts[r.status] = counts.get(r.status, 0) + 1
        if r.status in ("fail", "xpass"):
            failed.append(r)
        elif args.verbose:
            print("%s: %s %s" % (r.status.upper(), r.case.name, r.detail))

    unsupported = {}
    for r in results:
        if r.status == "unsupported":
            unsupported.setdefault(r.detail, []).append(r.case.name)
    if unsupported:
        print("Not supported on the GPU yet (the compiler says so):")
        for why, names in sorted(unsupported.items()):
            print("  %d cases: %s (e.g. %s)" % (len(names), why,
                                                 ", ".join(sorted(names)[:3])))
        if args.verbose:
            for why, names in sorted(unsupported.items()):
                for name in sorted(names):
                    print("  UNSUPPORTED %s: %s" % (name, why))
    xfails = [r for r in results if r.status == "xfail"]
    if xfails:
        print("Known failures (XFAIL in test/ops/run_ops.py):")
        for r in sorted(xfails, key=lambda r: r.case.name):
            print("  XFAIL %s: %s" % (r.case.name, r.detail))
    me = os.path.relpath(os.path.abspath(__file__))
    for r in sorted(failed, key=lambda r: r.case.name):
        print("FAIL %s: %s" % (r.case.name, r.detail))
        print("  reproduce: python3 %s --%s --tile-run %s --case '%s' "
              "--keep /tmp/tile-ops -v" % (me, args.mode, args.tile_run,
                                           r.case.name))
    print("%d passed, %d failed, %d expected-error, %d known failures%s "
          "(%d cases in %.1f s)" % (
              counts.get("pass", 0),
              counts.get("fail", 0) + counts.get("xpass", 0),
              counts.get("error-ok", 0), counts.get("xfail", 0),
              ", %d not supported on the GPU yet" % counts["unsupported"]
              if "unsupported" in counts else "",
              len(results), time.time() - start))
    if omitted:
        print("(%d more diagnostic cases of the same rules as those run: "
              "--all-errors runs them)" % omitted)
    if not args.keep:
        shutil.rmtree(workdir, ignore_errors=True)
    else:
        print("kernels and .npy files in %s" % workdir)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
