#!/usr/bin/env python3
"""Where the softmax sits relative to the wgmma waits, read from the SASS.

On the GPU machine (cuobjdump is there, not where MLIR is): assembles each
kernel.ptx with ptxas -arch=sm_90a, disassembles it and, for every
`WARPGROUP.DEPBAR.LE gsb0, 0x1` (wait until one wgmma group is left in
flight), counts the MUFU.EX2 before the next wait. With intra-warpgroup
overlap the block's exponentials must sit there, inside the P V wgmma's
shadow; a count near 0 means ptxas pulled the full wait up above them.

  python3 bench/sass_report.py [--dump DIR] artifacts/kernels/d128_full ...
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

CUDA_BIN = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin")
WAIT = re.compile(r"WARPGROUP\.DEPBAR\.LE\s+gsb0,\s*0x([0-9a-f]+)")


def sass_of(ptx):
    with tempfile.TemporaryDirectory() as tmp:
        cubin = os.path.join(tmp, "k.cubin")
        subprocess.run([os.path.join(CUDA_BIN, "ptxas"), "-arch=sm_90a", ptx, "-o", cubin], check=True)
        return subprocess.run([os.path.join(CUDA_BIN, "cuobjdump"), "-sass", cubin], check=True,
                              capture_output=True, text=True).stdout


def report(name, sass):
    lines = sass.splitlines()
    mufu_total = sum("MUFU.EX2" in l for l in lines)
    regions = []  # MUFU.EX2 between each wait-1 and the next wait
    open_region = None
    for line in lines:
        m = WAIT.search(line)
        if m:
            if open_region is not None:
                regions.append(open_region)
            open_region = 0 if int(m.group(1), 16) == 1 else None
        elif open_region is not None and "MUFU.EX2" in line:
            open_region += 1
    waits = len(WAIT.findall(sass))
    # Spill traffic, and how much of it sits between the first and the last
    # wgmma wait (the kv loops): spills outside them cost once per tile.
    spill = [i for i, l in enumerate(lines) if re.search(r"\b(LDL|STL)\b", l)]
    wait_lines = [i for i, l in enumerate(lines) if WAIT.search(l)]
    in_loops = sum(wait_lines[0] < i < wait_lines[-1] for i in spill) if wait_lines else 0
    print(f"sass {name}: {len(lines)} lines, {waits} wgmma waits, {mufu_total} MUFU.EX2, "
          f"MUFU.EX2 inside each wait<1>..wait region: {regions or 'no wait<1>'}, "
          f"LDL/STL: {len(spill)} ({in_loops} between the first and last wgmma wait)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kernels", nargs="+", help="kernel directories (holding kernel.ptx)")
    ap.add_argument("--dump", help="also write each SASS listing here")
    args = ap.parse_args()
    for k in args.kernels:
        name = "/".join(os.path.normpath(k).split(os.sep)[-2:])
        try:
            sass = sass_of(os.path.join(k, "kernel.ptx"))
        except (OSError, subprocess.CalledProcessError) as e:
            print(f"sass {name}: failed: {e}", file=sys.stderr)
            continue
        report(name, sass)
        if args.dump:
            os.makedirs(args.dump, exist_ok=True)
            with open(os.path.join(args.dump, name.replace("/", "_") + ".sass"), "w") as f:
                f.write(sass)


if __name__ == "__main__":
    main()
