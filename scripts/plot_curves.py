#!/usr/bin/env python3
"""PNG training curves from a run's metrics.jsonl: training loss, validation loss, perplexity and
BLEU, and the learning rate against steps, epochs marked.

  scripts/plot_curves.py RUN [RUN ...] [--out FILE]    (default: RUN/curves.png)

Several runs share the axes, one colour each. Reads only metrics.jsonl (one JSON object per
event: "train" with step, epoch, loss, lr; "valid" with step, loss, ppl, bleu).
Needs python3-matplotlib (scripts/setup.sh --extras installs it).
"""
import argparse
import json
import sys
from pathlib import Path

PANELS = [("train", "loss", "training loss"), ("valid", "loss", "validation loss"),
          ("valid", "ppl", "validation perplexity"), ("valid", "bleu", "validation BLEU"),
          ("train", "lr", "learning rate")]


def read_events(run):
    path = Path(run) / "metrics.jsonl"
    if not path.is_file():
        raise ValueError(f"{path}: not found (is {run} a run directory?)")
    events = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            events.append(json.loads(line))
        except json.JSONDecodeError:
            raise ValueError(f"{path}:{n}: not JSON")
    return events


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--out")
    args = ap.parse_args()
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("error: matplotlib is missing: install python3-matplotlib (scripts/setup.sh --extras)",
              file=sys.stderr)
        return 2
    try:
        runs = [(run, read_events(run)) for run in args.runs]
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    fig, axes = plt.subplots(1, len(PANELS), figsize=(4 * len(PANELS), 3.2))
    for (event, key, title), ax in zip(PANELS, axes):
        for i, (run, events) in enumerate(runs):
            color = f"C{i}"
            points = [(e["step"], e[key]) for e in events
                      if e.get("event") == event and isinstance(e.get(key), (int, float))]
            if points:
                ax.plot(*zip(*points), color=color, label=Path(run).name,
                        marker="o" if event == "valid" else None, markersize=3)
            epoch = 1
            for e in events:
                if e.get("event") == "train" and e.get("epoch", 1) > epoch:
                    epoch = e["epoch"]
                    ax.axvline(e["step"], color=color, alpha=0.2, linestyle="--")
        ax.set_title(title)
        ax.set_xlabel("step")
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    out = Path(args.out) if args.out else Path(args.runs[0]) / "curves.png"
    fig.savefig(out, dpi=120)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
