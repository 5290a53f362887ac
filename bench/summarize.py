#!/usr/bin/env python3
"""A Markdown table and a plot from one results JSON of bench/gpu_check.py.

  python3 bench/summarize.py bench/results-DATE-runN.json [--markdown OUT.md] [--png OUT.png | --no-plot]
  python3 bench/summarize.py bench/results-DATE-runN.json --update bench/RESULTS.md

The JSON is what gpu_check.py --json writes: {"sweep": [one row per check]
(absent after --no-sweep),
"bench": {"ceilings": {...}, "rows": [one row per shape], "peers": [...]}}
("environment" in bench only from the commit that added this script on).

Markdown (stdout, --markdown FILE, or --update FILE, which replaces the text
between the two marker lines of MARKERS in FILE): the correctness sweep's
pass count, the ceilings, and per shape the TFLOP/s of attnc, cuDNN, FA2 and
FlexAttention and attnc / cuDNN. A peer missing at a shape prints as "-"; a
peer missing at every shape loses its column.

Plot (matplotlib; the PNG goes next to the JSON, same name, unless --png or
--no-plot): TFLOP/s against sequence length, attnc and each peer, one panel per
head dim and mask (no mask / causal), with the run's measured bf16 GEMM rate
as a dotted line. The Markdown links the PNG when one is written.
Needs only the standard library for the Markdown and matplotlib for the plot.
"""
import argparse
import json
import os
import sys

# (key in a bench row, column and legend label)
SERIES = (("attnc_tflops", "attnc"), ("cudnn", "cuDNN"), ("fa2", "FA2"), ("flex", "Flex"))
MARKERS = ("<!-- summarize.py: begin (generated; edit bench/summarize.py, not this) -->",
           "<!-- summarize.py: end -->")


class ResultsError(Exception):
    pass


def load(path):
    with open(path) as f:
        data = json.load(f)
    # gpu_check.py --no-sweep writes the benchmark alone.
    if not isinstance(data, dict) or ("sweep" not in data and "bench" not in data):
        raise ResultsError(f"{path}: not a bench/gpu_check.py results file (no 'sweep' or 'bench')")
    bench = data.get("bench")
    if bench is not None and not isinstance(bench.get("rows"), list):
        raise ResultsError(f"{path}: 'bench' has no 'rows' list")
    return data


def value(row, key):
    """The row's TFLOP/s for one series, or None where it was not measured."""
    v = row.get(key)
    return float(v) if isinstance(v, (int, float)) and v > 0 else None


def sweep_summary(sweep):
    passed = sum(1 for r in sweep if r.get("ok"))
    kernels = len({r.get("kernel") for r in sweep})
    failed = [r for r in sweep if not r.get("ok")]
    return passed, len(sweep), kernels, failed


def fmt(v, spec):
    return "-" if v is None else format(v, spec)


def ratio_range(rows, pick):
    ratios = [value(r, "attnc_tflops") / value(r, "cudnn") for r in rows
              if pick(r) and value(r, "attnc_tflops") and value(r, "cudnn")]
    return (min(ratios), max(ratios)) if ratios else None


def markdown(data, name, png_link=None):
    """The summary as Markdown lines."""
    out = []
    if "sweep" in data:
        passed, total, kernels, failed = sweep_summary(data["sweep"])
        out.append(f"Source: `{name}`. Correctness sweep: **{passed}/{total} passed** ({kernels} kernels).")
    else:
        failed = []
        out.append(f"Source: `{name}`. Correctness sweep: not in this file (gpu_check.py --no-sweep).")
    for r in failed[:10]:
        out.append(f"- FAIL {r.get('kernel')} B={r.get('B')} Nq={r.get('Nq')} Nk={r.get('Nk')}: {r.get('why')}")
    if len(failed) > 10:
        out.append(f"- … and {len(failed) - 10} more failures")
    bench = data.get("bench")
    if not bench or not bench["rows"]:
        out.append("")
        out.append("No benchmark in this run.")
        return out
    rows = bench["rows"]
    env = bench.get("environment")
    ceil = bench.get("ceilings") or {}
    facts = []
    if env:
        facts.append(f"{env.get('device')}, torch {env.get('torch')}, Triton {env.get('triton')}, "
                     f"cuDNN {env.get('cudnn')}")
    if ceil:
        facts.append(f"ceilings: bf16 GEMM 8192³ {ceil['gemm_bf16_tflops']:.0f} TFLOP/s, "
                     f"copy {ceil['copy_tbps']:.2f} TB/s")
    if facts:
        out.append("; ".join(facts) + ".")
    out.append("")
    present = [(key, label) for key, label in SERIES if any(value(r, key) for r in rows)]
    missing = [label for key, label in SERIES if (key, label) not in present]
    out.append("| N | D | causal | B | H | " + " | ".join(label for _, label in present)
               + " | attnc / cuDNN |")
    out.append("|" + "---|" * (5 + len(present) + 1))
    for r in rows:
        cells = [str(r["N"]), str(r["D"]), str(int(bool(r["causal"]))), str(r["B"]), str(r["H"])]
        cells += [fmt(value(r, key), ".0f") for key, _ in present]
        a, c = value(r, "attnc_tflops"), value(r, "cudnn")
        cells.append(fmt(a / c if a and c else None, ".2f"))
        out.append("| " + " | ".join(cells) + " |")
    out.append("")
    notes = ["TFLOP/s = 4·B·H·N²·D (halved when causal) over the median time (`triton.testing.do_bench`)"]
    long_range = ratio_range(rows, lambda r: r["N"] >= 4096)
    short_range = ratio_range(rows, lambda r: r["N"] < 4096)
    if long_range:
        notes.append(f"attnc / cuDNN {long_range[0]:.2f}–{long_range[1]:.2f} at N ≥ 4096")
    if short_range:
        notes.append(f"{short_range[0]:.2f}–{short_range[1]:.2f} at N < 4096")
    if missing:
        notes.append("not measured in this run: " + ", ".join(missing))
    ablations = sorted({label for r in rows for label in (r.get("ablations") or {})})
    if ablations:
        notes.append("ablation columns in the JSON: " + ", ".join(ablations))
    out.append("; ".join(notes) + ".")
    if png_link:
        out.append("")
        out.append(f"![attnc and its peers, TFLOP/s against sequence length]({png_link})")
    return out


def plot(data, name, png_path):
    """Writes the PNG: one panel per (head dim, mask), TFLOP/s against N."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = data["bench"]["rows"]
    dims = sorted({r["D"] for r in rows})
    masks = [m for m in (False, True) if any(bool(r["causal"]) == m for r in rows)]
    per_row = min(len(dims), 4)  # head dims per band; a band has one line of panels per mask
    bands = -(-len(dims) // per_row)
    nrows = bands * len(masks)
    fig, axes = plt.subplots(nrows, per_row, figsize=(3.6 * per_row, 2.9 * nrows), sharey=True,
                             squeeze=False)
    styles = {"attnc": dict(color="black", linewidth=2.4, marker="o", zorder=3),
              "cuDNN": dict(color="tab:blue", marker="s"),
              "FA2": dict(color="tab:orange", marker="^"),
              "Flex": dict(color="tab:green", marker="D")}
    gemm = (data["bench"].get("ceilings") or {}).get("gemm_bf16_tflops")
    for ax in axes.flat:
        ax.set_visible(False)
    for i, D in enumerate(dims):
        for j, causal in enumerate(masks):
            ax = axes[(i // per_row) * len(masks) + j][i % per_row]
            panel = sorted((r for r in rows if r["D"] == D and bool(r["causal"]) == causal), key=lambda r: r["N"])
            if not panel:
                continue
            ax.set_visible(True)
            seqlens = [r["N"] for r in panel]
            for key, label in SERIES:
                points = [(r["N"], value(r, key)) for r in panel if value(r, key)]
                if points:
                    ax.plot(*zip(*points), label=label, **styles[label])
            if gemm:
                ax.axhline(gemm, color="gray", linestyle=":", linewidth=1, label="bf16 GEMM (measured)")
            ax.set_xscale("log", base=2)
            ax.set_xticks(seqlens)
            ax.set_xticklabels([f"{n // 1024}k" if n % 1024 == 0 else str(n) for n in seqlens])
            ax.minorticks_off()
            ax.set_title(f"D = {D}, {'causal' if causal else 'no mask'} (B·N = {panel[0]['B'] * panel[0]['N']}, "
                         f"H = {panel[0]['H']})", fontsize=9)
            ax.set_xlabel("sequence length N", fontsize=8)
            ax.set_ylabel("TFLOP/s", fontsize=8)
            ax.tick_params(labelsize=8)
            ax.grid(True, alpha=0.3)
            ax.set_ylim(bottom=0)
    handles = {}
    for ax in axes.flat:
        for h, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, h)
    # The series in SERIES order, the ceiling last.
    order = [label for _, label in SERIES] + ["bf16 GEMM (measured)"]
    labels = [label for label in order if label in handles]
    passed, total, _, _ = sweep_summary(data.get("sweep", []))
    swept = f"sweep {passed}/{total} passed" if "sweep" in data else "no sweep"
    fig.suptitle(f"{name}: attnc and its peers (bf16; {swept})", fontsize=10)
    fig.legend([handles[label] for label in labels], labels, loc="lower center", ncol=len(labels), fontsize=8)
    fig.tight_layout(rect=(0, 0.05, 1, 0.95))
    fig.savefig(png_path, dpi=110, metadata={"Software": None})
    plt.close(fig)
    panels = sum(1 for ax in axes.flat if ax.get_visible())
    return (f"{panels} panels (D = {', '.join(map(str, dims))}; "
            f"{', '.join('causal' if m else 'no mask' for m in masks)})")


def update(path, text):
    """Replaces what lies between the MARKERS lines of path with text."""
    with open(path) as f:
        doc = f.read()
    begin, end = doc.find(MARKERS[0]), doc.find(MARKERS[1])
    if begin < 0 or end < begin:
        raise ResultsError(f"{path}: no '{MARKERS[0]}' ... '{MARKERS[1]}' block to replace")
    doc = doc[:begin + len(MARKERS[0])] + "\n" + text + doc[end:]
    with open(path, "w") as f:
        f.write(doc)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", help="a results JSON written by bench/gpu_check.py --json")
    ap.add_argument("--markdown", help="write the Markdown here (default: stdout)")
    ap.add_argument("--update", help="replace the generated block of this Markdown file")
    ap.add_argument("--png", help="write the plot here (default: the JSON's path with .png)")
    ap.add_argument("--no-plot", action="store_true", help="Markdown only (no matplotlib needed)")
    a = ap.parse_args(argv)
    try:
        data = load(a.json)
        name = os.path.basename(a.json)
        png = None
        if not a.no_plot and data.get("bench") and data["bench"]["rows"]:
            png = a.png or os.path.splitext(a.json)[0] + ".png"
            what = plot(data, name, png)
        doc_path = a.update or a.markdown
        link = None
        if png:
            base = os.path.dirname(os.path.abspath(doc_path)) if doc_path else os.path.dirname(os.path.abspath(a.json))
            link = os.path.relpath(os.path.abspath(png), base)
        text = "\n".join(markdown(data, name, link)) + "\n"
        if a.update:
            update(a.update, text)
        elif a.markdown:
            with open(a.markdown, "w") as f:
                f.write(text)
        else:
            sys.stdout.write(text)
        if png:
            print(f"summarize.py: wrote {png}: {what}", file=sys.stderr)
    except (OSError, ValueError, KeyError, ResultsError) as e:
        print(f"summarize.py: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
