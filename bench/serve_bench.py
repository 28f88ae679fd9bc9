#!/usr/bin/env python3
"""Sentences per second through `s2s serve` against `s2s translate` on the same lines.

For each of 1 and 8 concurrent clients and requests of 1 and of 8 sentences ({"texts": [...]}),
the lines are dealt out to the clients in order and sent as fast as answers come back; the
server's throughput is lines / wall seconds, with the requests' p50 and p99 latency. The
baseline is `s2s translate --input LINES` on the same run with the same decoding settings:
lines / (its wall time minus that of translating an empty file, i.e. without the model load).
Sides alternate (translate, server, translate, server) and each keeps its best of the rounds.

Usage: bench/serve_bench.py S2S_BINARY RUN_DIR LINES_FILE [--rounds 2] [--json OUT]
                            [--serve-arg=--threads --serve-arg=2 ...]
(--serve-arg: one more argument for `s2s serve`, e.g. its worker count)
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "cli"))
from serve_client import Server, percentile, run_clients  # noqa: E402


def translate_seconds(s2s, run, path, out):
    start = time.perf_counter()
    subprocess.run([s2s, "translate", "--run", run, "--input", path, "--output", out],
                   check=True, capture_output=True)
    return time.perf_counter() - start


def baseline(s2s, run, lines_file, work):
    empty = os.path.join(work, "empty.txt")
    open(empty, "w").close()
    startup = min(translate_seconds(s2s, run, empty, os.path.join(work, "e.out")) for _ in range(2))
    total = translate_seconds(s2s, run, lines_file, os.path.join(work, "t.out"))
    return total - startup


def through_server(server, lines, clients, per_request):
    share = [lines[c::clients] for c in range(clients)]
    chunks = [[s[i:i + per_request] for i in range(0, len(s), per_request)] for s in share]
    most = max(len(c) for c in chunks)

    def body(c, i):
        if i >= len(chunks[c]):
            return None
        texts = chunks[c][i]
        return {"text": texts[0]} if per_request == 1 else {"texts": texts}

    latencies, failures, wall = run_clients(server, clients, body, most)
    if failures:
        raise SystemExit("server failures: " + "; ".join(failures[:3]))
    return len(lines) / wall, percentile(latencies, 50) * 1000, percentile(latencies, 99) * 1000


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("s2s")
    p.add_argument("run")
    p.add_argument("lines")
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--json")
    p.add_argument("--serve-arg", action="append", default=[],
                   help="one more argument for s2s serve (repeat: --serve-arg=--threads --serve-arg=2)")
    a = p.parse_args()
    with open(a.lines) as f:
        lines = [line.rstrip("\n") for line in f]
    work = tempfile.mkdtemp(prefix="serve_bench.")
    best_translate = float("inf")
    best = {}
    for r in range(a.rounds):
        best_translate = min(best_translate, baseline(a.s2s, a.run, a.lines, work))
        server = Server(a.s2s, os.path.join(work, f"serve{r}.log"), "--run", a.run, *a.serve_arg)
        run_clients(server, 2, lambda c, i: {"text": lines[i]}, 10)  # warm-up
        for clients in (1, 8):
            for per_request in (1, 8):
                result = through_server(server, lines, clients, per_request)
                key = (clients, per_request)
                if key not in best or result[0] > best[key][0]:
                    best[key] = result
        server.stop(signal.SIGTERM)
    translate_rate = len(lines) / best_translate
    rows = []
    print(f"s2s translate: {translate_rate:.1f} sentences/s ({len(lines)} lines)")
    print("clients  sentences/request  sentences/s  ratio  p50 ms  p99 ms")
    for (clients, per_request), (rate, p50, p99) in sorted(best.items()):
        rows.append({"clients": clients, "sentences_per_request": per_request,
                     "sentences_per_s": rate, "ratio": rate / translate_rate,
                     "p50_ms": p50, "p99_ms": p99})
        print(f"{clients:7d}  {per_request:17d}  {rate:11.1f}  {rate / translate_rate:5.2f}  "
              f"{p50:6.1f}  {p99:6.1f}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"translate_sentences_per_s": translate_rate, "lines": len(lines),
                       "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
