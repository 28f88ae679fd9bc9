#!/usr/bin/env python3
"""`s2s serve` against a real server on a free port of 127.0.0.1: the API's good requests agree
with `s2s translate`; every bad input gets its status and a one-line reason and the server stays
up; concurrent clients get their own answers, batched together; a full queue answers 503 with
Retry-After; clients that disconnect mid-request harm nothing; SIGTERM finishes the request in
flight and exits 143, SIGINT 130.
Usage: serve_test.py S2S_BINARY WORK_DIR   (run from the repository root)"""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_client import Server  # noqa: E402

s2s, work = sys.argv[1:3]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
run = os.path.join(work, "run")


def fail(message):
    print(f"FAIL: {message}")
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


subprocess.run([s2s, "train", "-c", "tests/cli/fixtures/tiny.json", "--set", f"run_dir={run}",
                "--set", "evaluation.heatmaps=0"], check=True, capture_output=True)
with open("data/en-fr/test.en") as f:
    lines = [next(f).strip() for _ in range(6)]
expected = subprocess.run([s2s, "translate", "--run", run], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, check=True).stdout.splitlines()

server = Server(s2s, os.path.join(work, "serve.log"), "--run", run, "--max-body-kb", "64")


def good_requests():
    status, _, health = server.request("GET", "/health")
    check(status == 200 and health["status"] == "ok", f"/health: {status} {health}")
    status, _, info = server.request("GET", "/info")
    check(status == 200 and info["checkpoint"] == "best" and info["model"]["scorer"] == "dot"
          and info["vocabularies"]["source"]["size"] > 4 and info["precision"] in ("fp32", "bf16")
          and info["program"]["version"], f"/info: {info}")
    status, head, page = server.request("GET", "/")
    check(status == 200 and head["content-type"].startswith("text/html") and "<textarea" in page,
          f"/: {status} {head}")
    check("src=\"http" not in page and "href=\"http" not in page, "the page fetches from elsewhere")
    status, _, one = server.translate({"text": lines[0]})
    check(status == 200 and one["translation"] == expected[0] and isinstance(one["score"], float),
          f"one sentence: {one} vs translate's {expected[0]!r}")
    status, _, many = server.translate({"texts": lines})
    check(status == 200 and [t["translation"] for t in many["translations"]] == expected,
          f"texts: {many} vs {expected}")
    status, _, nbest = server.translate({"texts": lines[:2], "beam": 3, "n_best": 3})
    for t in nbest["translations"]:
        check(len(t["n_best"]) == 3 and t["n_best"][0]["translation"] == t["translation"],
              f"n-best: {t}")
    status, _, att = server.translate({"text": lines[1], "attention": True, "heatmap": True})
    a = att["attention"]
    check(status == 200 and a["source"][-1] == "</s>" and a["target"][-1] == "</s>"
          and len(a["weights"]) == len(a["target"])
          and all(len(r) == len(a["source"]) and abs(sum(r) - 1) < 1e-4 for r in a["weights"]),
          f"attention: {att}")
    check(att["heatmap"].startswith('<svg class="heatmap"') and "<title>" in att["heatmap"],
          "no heatmap SVG")
    status, _, empty = server.translate({"text": "", "attention": True})
    check(status == 200 and empty["translation"] == "" and empty["attention"] is None,
          f"empty text: {empty}")
    limit = info["decoding"]["max_src_len"]
    status, _, cut = server.translate({"text": " ".join(["word"] * (limit + 20))})
    check(status == 200 and any(f"{limit + 20} tokens cut to the first {limit}" in w
                                for w in cut.get("warnings", [])),
          f"a long sentence: {cut}")


def bad_requests():
    cases = [
        ("{", 400, "invalid JSON"),
        ("[1, 2]", 400, "expected a JSON object"),
        ("", 400, "empty body"),
        ({"text": 5}, 400, "text: expected a string, found an integer"),
        ({"texts": ["a", 3]}, 400, r"texts[1]: expected a string"),
        ({"texts": []}, 400, "texts: empty"),
        ({"text": "a", "texts": ["b"]}, 400, "not both"),
        ({"beam": 2}, 400, "missing field: text or texts"),
        ({"text": "a", "colour": 1}, 400, "unknown field 'colour'"),
        ({"text": "a", "beam": 0}, 400, "beam: must be in 1..100"),
        ({"text": "a", "beam": "5"}, 400, "beam: expected an integer, found a string"),
        ({"text": "a", "beam": 2, "n_best": 5}, 400, "n_best: 5 hypotheses need a beam of at least 5"),
        ({"text": "a", "length_penalty": -1}, 400, "length_penalty: must be a number >= 0"),
        ({"text": "a", "attention": "yes"}, 400, "attention: expected a boolean"),
        ('{"text": "a", "text": "b"}', 400, "duplicate key 'text'"),
        (b'{"text": "\xff\xfe"}', 400, "invalid JSON"),
        ({"text": "x" * 100000}, 413, "over 65536 bytes"),
    ]
    for body, want, reason in cases:
        status, _, answer = server.translate(body)
        check(status == want and isinstance(answer, dict) and reason in answer.get("error", "")
              and "\n" not in answer["error"], f"{str(body)[:60]}: {status} {answer}")
    for method, path, want in [("GET", "/translate", 405), ("POST", "/health", 405),
                               ("GET", "/nope", 404), ("DELETE", "/info", 405)]:
        status, head, answer = server.request(method, path)
        check(status == want and "error" in answer, f"{method} {path}: {status} {answer}")
    check(server.request("GET", "/translate")[1].get("allow") == "POST", "405 without Allow")


def concurrent_clients():
    sentences = [f"{lines[i % 6]} {lines[(i + 1) % 6]}" for i in range(16)]
    want = [t["translation"] for t in server.translate({"texts": sentences})[2]["translations"]]
    answers = {}

    def client(c):
        for i in range(10):
            status, _, a = server.translate({"text": sentences[(c + i) % 16]})
            answers[(c, i)] = (status, a.get("translation"))

    threads = [threading.Thread(target=client, args=(c,)) for c in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for (c, i), (status, text) in answers.items():
        check(status == 200 and text == want[(c + i) % 16],
              f"client {c} request {i}: {status} {text!r}, alone {want[(c + i) % 16]!r}")
    batched = [int(n) for n in re.findall(r"from (\d+) requests", server.text())]
    check(max(batched) > 1, f"no batch held two requests: {batched[:20]}")


def two_workers():
    """--threads 2: two batches decode at once, and every answer is still the one translate gives."""
    both = Server(s2s, os.path.join(work, "threads2.log"), "--run", run, "--threads", "2",
                  "--max-batch", "2")
    answers = []

    def client(c):
        for i in range(6):
            k = (c + i) % 6
            answers.append((k, both.translate({"text": lines[k]})))

    threads = [threading.Thread(target=client, args=(c,)) for c in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k, (status, _, a) in answers:
        check(status == 200 and a["translation"] == expected[k], f"--threads 2: {status} {a}")
    check(both.stop(signal.SIGTERM) == 143, "--threads 2: exit code")


def disconnects():
    # Headers promise 1000 bytes, 10 come, then the client leaves.
    s = socket.create_connection(("127.0.0.1", server.port))
    s.sendall(b"POST /translate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
              b"Content-Length: 1000\r\n\r\n{\"text\": \"")
    s.close()
    # A whole request, and gone before the answer.
    body = json.dumps({"texts": lines * 5, "beam": 4}).encode()
    for _ in range(5):
        s = socket.create_connection(("127.0.0.1", server.port))
        s.sendall(b"POST /translate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        s.close()
    time.sleep(1)
    check(server.request("GET", "/health")[0] == 200, "the server died after disconnects")
    check(server.translate({"text": lines[0]})[2]["translation"] == expected[0],
          "wrong answer after disconnects")


def full_queue_and_sigterm():
    slow = Server(s2s, os.path.join(work, "slow.log"), "--run", run, "--queue", "1",
                  "--max-batch", "1", "--wait-ms", "0")
    body = {"texts": lines * 5, "beam": 5}
    results = []
    threads = [threading.Thread(target=lambda: results.append(slow.translate(body)))
               for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    refused = [r for r in results if r[0] == 503]
    check(refused and all(r[0] in (200, 503) for r in results),
          f"a full queue: {[r[0] for r in results]}")
    for status, head, answer in refused:
        check(head.get("retry-after") == "1" and "queue is full" in answer["error"],
              f"503: {head} {answer}")
    # SIGTERM while a request is being decoded: it is answered, then the server exits 143.
    in_flight = []
    t = threading.Thread(target=lambda: in_flight.append(slow.translate(body)))
    t.start()
    time.sleep(0.3)
    code = slow.stop(signal.SIGTERM)
    t.join()
    check(code == 143, f"SIGTERM: exit {code}\n{slow.text()[-2000:]}")
    check(in_flight and in_flight[0][0] == 200 and len(in_flight[0][2]["translations"]) == 30,
          f"the request in flight at SIGTERM: {str(in_flight)[:300]}")


good_requests()
bad_requests()
concurrent_clients()
two_workers()
disconnects()
check(server.request("GET", "/health")[0] == 200, "the server is down")
full_queue_and_sigterm()
code = server.stop(signal.SIGINT)
check(code == 130, f"SIGINT: exit {code}")
log = server.text()
check("POST /translate 400" in log and "interrupted by SIGINT" in log, f"log:\n{log[-2000:]}")
print("serve test passed")
