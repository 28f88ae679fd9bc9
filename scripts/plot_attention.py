#!/usr/bin/env python3
"""PNG pictures of attention heatmaps, for papers and slides.

  scripts/plot_attention.py RUN/heatmaps [--out DIR]            every CSV listed in index.jsonl
  scripts/plot_attention.py RUN/heatmaps/0001_head0.csv [--out DIR]   one heatmap

Reads the project's heatmap CSVs (first row `target\\source,<source tokens>`, then one row per
target token: its label, then its weights) and writes one PNG per CSV, with the source tokens
along the x axis, the target tokens along the y axis and a colour bar; a heatmap directory's
index.jsonl gives each picture its sentence, hypothesis and decoding as the title.
Needs python3-matplotlib (scripts/setup.sh --extras installs it).
"""
import argparse
import csv
import json
import sys
from pathlib import Path


def read_heatmap(path):
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    if not rows or len(rows[0]) < 2:
        raise ValueError(f"{path}: not a heatmap CSV (no header row)")
    source = rows[0][1:]
    target = [r[0] for r in rows[1:]]
    weights = [[float(x) for x in r[1:]] for r in rows[1:]]
    if any(len(w) != len(source) for w in weights):
        raise ValueError(f"{path}: a row's weights do not match the {len(source)} columns")
    return source, target, weights


def plot(csv_path, out_path, title, plt):
    source, target, weights = read_heatmap(csv_path)
    fig, ax = plt.subplots(figsize=(max(3.0, 0.35 * len(source) + 1.8), max(2.5, 0.35 * len(target) + 1.4)))
    image = ax.imshow(weights, cmap="Blues", vmin=0.0, vmax=1.0, aspect="auto")
    ax.set_xticks(range(len(source)), labels=source, rotation=90)
    ax.set_yticks(range(len(target)), labels=target)
    ax.set_xlabel("source")
    ax.set_ylabel("target")
    if title:
        ax.set_title(title, fontsize=9)
    fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04)
    fig.tight_layout()
    fig.savefig(out_path, dpi=150)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("input", help="a heatmap directory (with index.jsonl) or one CSV file")
    ap.add_argument("--out", help="output directory (default: beside the CSVs)")
    args = ap.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("error: matplotlib is missing: install python3-matplotlib (scripts/setup.sh --extras)",
              file=sys.stderr)
        return 2
    src = Path(args.input)
    if src.is_dir():
        index = src / "index.jsonl"
        if not index.is_file():
            print(f"error: {index}: not found (is {src} a heatmap directory?)", file=sys.stderr)
            return 2
        items = []
        for line in index.read_text(encoding="utf-8").splitlines():
            e = json.loads(line)
            title = (f"sentence {e['id']}, head {e['head']} ({e.get('matrix', '')}, {e.get('decode', '')})\n"
                     f"{e.get('hypothesis', '')}")
            items.append((src / e["file"], title))
    elif src.is_file():
        items = [(src, src.stem)]
    else:
        print(f"error: {src}: no such file or directory", file=sys.stderr)
        return 2
    out = Path(args.out) if args.out else (src if src.is_dir() else src.parent)
    out.mkdir(parents=True, exist_ok=True)
    for csv_path, title in items:
        try:
            plot(csv_path, out / (csv_path.stem + ".png"), title, plt)
        except (OSError, ValueError) as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
    print(f"wrote {len(items)} PNG files to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
