"""Compile kernels ahead of time into a folder that ATTNC_KERNEL_DIR can point at.

    python3 -m attnc.precompile --out DIR KEY [KEY...]

KEY is a KernelSpec key, e.g. bf16-hq8-hkv2-d128-dv128-bhsd-causal-lse.
Copy DIR to a machine without a compiler and set ATTNC_KERNEL_DIR=DIR there.
"""
import argparse
import os
import sys
import time

from .compiler import compile_spec, find_compiler
from .errors import AttncError
from .spec import KernelSpec


def precompile(specs, out_dir, compiler=None):
    """Compiles each spec into out_dir/<key>/ (existing artifacts are kept);
    returns [(spec, seconds or None when it existed)]."""
    compiler = compiler or find_compiler()
    if compiler is None:
        raise AttncError("attnc.precompile", "no attnc-compile found: set ATTNC_COMPILER or put it on PATH")
    done = []
    for spec in specs:
        dest = os.path.join(out_dir, spec.key)
        if os.path.isfile(os.path.join(dest, "manifest.json")):
            done.append((spec, None))
            continue
        start = time.perf_counter()
        compile_spec(compiler, spec, dest)
        done.append((spec, time.perf_counter() - start))
    return done


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m attnc.precompile", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="folder to write <key>/ artifacts into")
    ap.add_argument("--compiler", help="attnc-compile to use (default: ATTNC_COMPILER, PATH, build tree)")
    ap.add_argument("keys", nargs="+", metavar="KEY")
    a = ap.parse_args(argv)
    try:
        specs = [KernelSpec.from_key(key) for key in a.keys]
        for spec, seconds in precompile(specs, a.out, a.compiler):
            print(f"{spec.key}: " + ("exists" if seconds is None else f"compiled in {seconds * 1e3:.0f} ms"))
    except (AttncError, ValueError) as e:
        print(e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
