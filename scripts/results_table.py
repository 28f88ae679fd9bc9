#!/usr/bin/env python3
"""Prints a Markdown table of finished runs: test BLEU, chrF, AER, attention entropy, parameters,
training time. Usage: scripts/results_table.py [--reinforce] RUN_DIR [RUN_DIR ...]

--reinforce adds the mean variance over sentences of the REINFORCE term, sum_t (R_t - b_t)
log a_t[s_t], over the training's log lines (hard attention trained by sampling; "–" otherwise).

Reads each run's test.scores.json (written by `s2s evaluate`, which `s2s train` runs at the end),
config.json, train.log (parameter count) and metrics.jsonl (training time = elapsed seconds at
the last validation). Python 3 standard library only.
"""
import json
import re
import sys
from pathlib import Path


def describe(config):
    attention = config["model"]["attention"]
    parts = [attention["scorer"]]
    if attention["rank"]:
        parts.append(f"rank {attention['rank']}")
    if attention["key_value"]:
        parts.append("key-value")
    if attention["heads"] > 1:
        parts.append(f"{attention['heads']} heads")
    if attention.get("hard", "none") != "none":
        parts.append(f"hard {attention['hard']}")
        if attention["hard"] == "sample":
            reinforce = config["training"]["reinforce"]
            parts.append(f"baseline {reinforce['baseline']}")
            parts.append(f"reward {reinforce.get('reward', 'sentence')}")
            if reinforce.get("normalize"):
                parts.append("normalized")
    if config["model"]["encoder"]["self_attention"]:
        parts.append("encoder self-attention")
    return ", ".join(parts)


def reinforce_variance(events):
    values = [e["reinforce_variance"] for e in events if "reinforce_variance" in e]
    return f"{sum(values) / len(values):.3g}" if values else "–"


def row(run, reinforce=False):
    config = json.loads((run / "config.json").read_text())
    scores = json.loads((run / "test.scores.json").read_text())
    params = re.search(r"(\d+) parameters", (run / "train.log").read_text()).group(1)
    events = [json.loads(line) for line in (run / "metrics.jsonl").read_text().splitlines()]
    valid = [e for e in events if e["event"] == "valid"]
    minutes = valid[-1]["elapsed_s"] / 60 if valid else float("nan")
    fmt = lambda key: f"{scores[key]:.3f}" if key in scores else "–"
    return (f"| {describe(config)} | {scores['bleu']['score']:.2f} | {scores['chrf']['score']:.2f} "
            f"| {fmt('aer')} | {fmt('attention_entropy')} | {int(params):,} "
            f"| {valid[-1]['step'] if valid else '–'} | {minutes:.1f} |"
            + (f" {reinforce_variance(events)} |" if reinforce else ""))


def check(run):
    """The first reason `run` cannot be a row, or None."""
    if not run.is_dir():
        return f"{run}: no such run directory"
    for name in ("config.json", "test.scores.json", "train.log", "metrics.jsonl"):
        if not (run / name).is_file():
            hint = " (train without --skip-test, or run s2s evaluate)" if "scores" in name else ""
            return f"{run}: no {name}{hint}"
    return None


def main():
    args = sys.argv[1:]
    reinforce = "--reinforce" in args
    args = [a for a in args if a != "--reinforce"]
    if not args:
        print("usage: scripts/results_table.py [--reinforce] RUN_DIR [RUN_DIR ...]", file=sys.stderr)
        return 2
    runs = [Path(arg) for arg in args]
    for run in runs:
        problem = check(run)
        if problem:
            print(f"error: {problem}", file=sys.stderr)
            return 2
    print("| attention | test BLEU | chrF | AER | entropy (nats) | parameters | steps | train min |"
          + (" REINFORCE term variance |" if reinforce else ""))
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |" + (" ---: |" if reinforce else ""))
    for run in runs:
        try:
            print(row(run, reinforce))
        except (ValueError, KeyError, AttributeError) as e:
            print(f"error: {run}: unreadable run files ({type(e).__name__}: {e})", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
