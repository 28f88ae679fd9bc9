#!/usr/bin/env python3
"""A bounded load test of `s2s serve` on 127.0.0.1: CLIENTS concurrent clients each send
REQUESTS single-sentence requests (after a short warm-up), in two halves. It prints throughput
and p50/p99 latency and fails on any failed request or on memory growth between the halves
(the server's RSS after the second half may exceed that after the first by at most
max(4 MiB, 2%): what a leak of a few hundred bytes a request would break).
Usage: serve_load_test.py S2S_BINARY WORK_DIR [CLIENTS REQUESTS]   (from the repository root)"""
import os
import shutil
import signal
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_client import Server, percentile, run_clients  # noqa: E402

s2s, work = sys.argv[1:3]
clients, requests = (int(a) for a in sys.argv[3:5]) if len(sys.argv) > 3 else (8, 200)
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
run = os.path.join(work, "run")
subprocess.run([s2s, "train", "-c", "tests/cli/fixtures/tiny.json", "--set", f"run_dir={run}",
                "--set", "evaluation.heatmaps=0"], check=True, capture_output=True)
with open("data/en-fr/test.en") as f:
    lines = [line.strip() for line in f][:100]

server = Server(s2s, os.path.join(work, "serve.log"), "--run", run)
body = lambda c, i: {"text": lines[(c * 37 + i) % len(lines)]}  # noqa: E731
run_clients(server, clients, body, 20)  # warm-up: allocator pools, thread stacks
halves = []
for half in range(2):
    latencies, failures, wall = run_clients(server, clients, body, requests // 2)
    halves.append((latencies, failures, wall, server.rss_kib()))
code = server.stop(signal.SIGTERM)

latencies = halves[0][0] + halves[1][0]
failures = halves[0][1] + halves[1][1]
wall = halves[0][2] + halves[1][2]
rss1, rss2 = halves[0][3], halves[1][3]
print(f"{clients} clients x {requests} requests: {len(latencies) / wall:.1f} requests/s, "
      f"p50 {1000 * percentile(latencies, 50):.1f} ms, p99 {1000 * percentile(latencies, 99):.1f} ms, "
      f"{len(failures)} failed; RSS {rss1 / 1024:.1f} MiB after the first half, "
      f"{rss2 / 1024:.1f} MiB after the second")
if failures:
    print("FAIL: " + "; ".join(failures[:5]))
    sys.exit(1)
if rss2 - rss1 > max(4096, 0.02 * rss1):
    print(f"FAIL: the server's memory grew by {(rss2 - rss1) / 1024:.1f} MiB in the second half")
    sys.exit(1)
if code != 143:
    print(f"FAIL: SIGTERM: exit {code}")
    sys.exit(1)
print("serve load test passed")
