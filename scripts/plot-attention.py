#!/usr/bin/env python3
"""Plots the attention tables that scripts/bench-attention-fwd.py and
scripts/bench-attention-bwd.py print (their Markdown rows, as in a device
call's log) with gnuplot: one panel per direction, HEAD_DIM and causality,
TFLOP/s against N_CTX, one line per implementation.

    python3 scripts/plot-attention.py LOG... [-o attention.png]

Tables with a warps column (bench-attention-bwd.py --warps) get one line per
implementation and warp count.

Needs gnuplot (apt-get install gnuplot-nox). Standard library only.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile


def parse(path, panels):
    """Adds path's rows to {(direction, head_dim, causal): {impl: [(n_ctx, tflops)]}}."""
    header = None
    for line in open(path):
        if not line.startswith("|") or line.startswith("|---"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0].startswith("Z, H, N_CTX"):
            header = cells
            continue
        if header is None:
            continue
        shape = [c.strip() for c in cells[0].split(",")]
        forward = len(shape) == 5
        n_ctx, head_dim = int(shape[2]), int(shape[3])
        causal = shape[4] == "True" if forward else True
        key = ("forward" if forward else "backward", head_dim, causal)
        row = dict(zip(header[1:], cells[1:]))
        suffix = f" ({row['warps']} warps)" if "warps" in row else ""
        if "stages" in row:
            suffix = f" ({row.get('warps', '?')} warps, {row['stages']} stages)"
        for name, value in row.items():
            match = re.match(r"(.*) TFLOP/s$", name)
            if not match:
                continue
            panels.setdefault(key, {}).setdefault(match.group(1) + suffix, []).append(
                (n_ctx, float(value)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("logs", nargs="+", metavar="LOG")
    parser.add_argument("-o", "--output", default="attention.png")
    parser.add_argument("--device", default=None,
                        help="the GPU named in the title (default: the first 'NVIDIA ...' line of the logs)")
    args = parser.parse_args()
    panels = {}
    for log in args.logs:
        parse(log, panels)
    if not panels:
        sys.exit(f"plot-attention: no attention table rows in {' '.join(args.logs)}")
    device = args.device or next(
        (line.split(",")[0].replace("NVIDIA ", "").strip() for log in args.logs for line in open(log)
         if line.startswith("NVIDIA ")), "the GPU")
    work = tempfile.mkdtemp()
    keys = sorted(panels, key=lambda k: (k[0] != "forward", k[1], k[2]))
    columns = 3
    rows = (len(keys) + columns - 1) // columns
    script = [
        f"set terminal pngcairo size {520 * columns},{400 * rows} font ',10'",
        f"set output '{args.output}'",
        f"set multiplot layout {rows},{columns} title "
        f"'Tutorial 06 attention on the {device}, fp16, Z 4, H 32 (TFLOP/s)'",
        "set termoption noenhanced", "set logscale x 2", "set xlabel 'N_CTX'", "set ylabel 'TFLOP/s'",
        "set key bottom right font ',8'", "set grid", "set yrange [0:*]",
    ]
    for key in keys:
        direction, head_dim, causal = key
        plots = []
        for impl, points in panels[key].items():
            data = os.path.join(work, f"{direction}-{head_dim}-{causal}-{len(plots)}.dat")
            with open(data, "w") as f:
                for n_ctx, value in sorted(points):
                    f.write(f"{n_ctx} {value}\n")
            width = 3 if impl.startswith("Tile") else 1.5
            plots.append(f"'{data}' using 1:2 with linespoints lw {width} title '{impl}'")
        script.append(f"set title '{direction}, HEAD_DIM {head_dim}, "
                      f"{'causal' if causal else 'not causal'}'")
        script.append("plot " + ", ".join(plots))
    script.append("unset multiplot")
    gp = os.path.join(work, "attention.gp")
    with open(gp, "w") as f:
        f.write("\n".join(script) + "\n")
    subprocess.run(["gnuplot", gp], check=True)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
