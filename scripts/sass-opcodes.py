#!/usr/bin/env python3
"""Counts the SASS instructions of kernels by opcode, without cuobjdump or
nvdisasm: assembles each PTX file with ptxas (or reads a cubin), takes the
low 12 bits of every 128-bit instruction of its .text sections, and names
the opcodes it can by assembling one-instruction kernels first (MUFU,
FFMA, FMUL, F2FP, ...; "FMUL.imm" is the form with an immediate operand).
With several files, one column each, so two builds of a kernel compare
side by side; ptxas's own notes (C7519: warpgroup.arrive it injected) are
counted too.

    python3 scripts/sass-opcodes.py [--arch sm_90a] [--top N] FILE.ptx|FILE.cubin...

Needs ptxas (PATH, else /usr/local/cuda/bin).
"""
import argparse
import os
import shutil
import struct
import subprocess
import sys
import tempfile
from collections import Counter

# One PTX instruction each, repeated on its own result so that none is dead.
CALIBRATION = {
    "MUFU": "ex2.approx.ftz.f32 %f1, %f0;",
    "FFMA": "fma.rn.f32 %f1, %f0, %f0, %f2;",
    "FFMA.imm": "fma.rn.f32 %f1, %f0, 0f3FB8AA3B, %f2;",
    "FMUL": "mul.f32 %f1, %f0, %f2;",
    "FMUL.imm": "mul.f32 %f1, %f0, 0f3FB8AA3B;",
    "FADD": "add.f32 %f1, %f0, %f2;",
    "FADD.imm": "add.f32 %f1, %f0, 0f3FB8AA3B;",
    "FMNMX": "max.f32 %f1, %f0, %f2;",
    "FMNMX.imm": "max.f32 %f1, %f0, 0f3FB8AA3B;",
    "IMAD": "mad.lo.s32 %r1, %r0, %r2, %r3;",
    "F2FP": "cvt.rn.f16x2.f32 %r1, %f0, %f2; mov.b32 %f0, %r1;",
    "BAR": "bar.sync 0;",
}


def ptxas_path():
    return shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"


def text_sections(cubin):
    """The bytes of the ELF's .text.* sections."""
    d = open(cubin, "rb").read()
    shoff = struct.unpack_from("<Q", d, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", d, shoff + i * shentsize) for i in range(shnum)]
    names = sections[shstrndx]
    out = b""
    for s in sections:
        if d[names[4] + s[0]:].split(b"\0")[0].startswith(b".text."):
            out += d[s[4]:s[4] + s[5]]
    return out


def opcodes(cubin):
    code = text_sections(cubin)
    return Counter(struct.unpack_from("<Q", code, i)[0] & 0xFFF for i in range(0, len(code), 16))


def assemble(ptx_file, arch, workdir):
    cubin = os.path.join(workdir, os.path.basename(ptx_file) + ".cubin")
    proc = subprocess.run([ptxas_path(), f"-arch={arch}", "-v", ptx_file, "-o", cubin],
                          capture_output=True, text=True)
    if proc.returncode:
        raise SystemExit(f"ptxas rejected {ptx_file}:\n{proc.stderr}")
    return cubin, proc.stderr


def calibration_kernel(instruction, copies):
    lines = [instruction if i == 0 else instruction.replace("%f1", "%f0").replace("%r1", "%r0")
             for i in range(copies)]
    return "\n".join([
        ".version 8.0", ".target sm_90a", ".address_size 64", ".visible .entry k(.param .u64 p){",
        ".reg .f32 %f<4>; .reg .b32 %r<4>; .reg .b64 %rd<2>;", "ld.param.u64 %rd1, [p];",
        "ld.global.f32 %f0, [%rd1]; ld.global.f32 %f2, [%rd1+4];",
        "ld.global.b32 %r0, [%rd1+8]; ld.global.b32 %r2, [%rd1+12]; ld.global.b32 %r3, [%rd1+16];",
        *lines,
        "st.global.f32 [%rd1+20], %f0; st.global.f32 [%rd1+24], %f1;",
        "st.global.b32 [%rd1+28], %r0; st.global.b32 [%rd1+32], %r1;", "ret;}"])


def calibrate(arch, workdir):
    """Opcode -> name: the opcode that 9 copies of an instruction add over 1."""
    names = {}
    for name, instruction in CALIBRATION.items():
        counts = []
        for copies in (1, 9):
            path = os.path.join(workdir, f"cal{copies}.ptx")
            with open(path, "w") as f:
                f.write(calibration_kernel(instruction, copies).replace("sm_90a", arch))
            counts.append(opcodes(assemble(path, arch, workdir)[0]))
        grown = [op for op in counts[1] if counts[1][op] - counts[0][op] >= 6]
        if len(grown) == 1:
            names[grown[0]] = name
    return names


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("files", nargs="+")
    parser.add_argument("--arch", default="sm_90a")
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        names = calibrate(args.arch, workdir)
        columns, injected = [], []
        for path in args.files:
            if path.endswith(".cubin"):
                cubin, log = path, ""
            else:
                cubin, log = assemble(path, args.arch, workdir)
            columns.append(opcodes(cubin))
            injected.append(log.count("C7519"))
    width = max(12, *(len(os.path.basename(p)) for p in args.files))
    print(f"{'opcode':>16} " + " ".join(f"{os.path.basename(p):>{width}}" for p in args.files))
    keys = sorted(set().union(*columns), key=lambda k: -max(c[k] for c in columns))
    for key in keys[:args.top]:
        label = f"{names.get(key, '')} {key:#05x}".strip()
        print(f"{label:>16} " + " ".join(f"{c[key]:>{width}}" for c in columns))
    print(f"{'total':>16} " + " ".join(f"{sum(c.values()):>{width}}" for c in columns))
    print(f"{'C7519 notes':>16} " + " ".join(f"{n:>{width}}" for n in injected))


if __name__ == "__main__":
    sys.exit(main())
