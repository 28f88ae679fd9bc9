"""A `s2s serve` process for the tests and the benchmark: started on a free port of 127.0.0.1,
asked with plain http.client (keep-alive per thread), stopped with a signal."""
import atexit
import http.client
import json
import re
import signal
import socket
import subprocess
import threading
import time


class ServerError(Exception):
    pass


class Server:
    """`s2s serve --port 0 ARGS...`, its log in LOG; the port is read from its startup line."""

    def __init__(self, s2s, log, *args, startup_s=120):
        self.log_path = log
        self.log = open(log, "w+")
        self.proc = subprocess.Popen([s2s, "serve", "--port", "0", *args],
                                     stdout=self.log, stderr=subprocess.STDOUT)
        atexit.register(self.proc.kill)  # a failed test leaves no server behind
        self.local = threading.local()
        deadline = time.time() + startup_s
        while True:
            found = re.search(r"on http://[0-9.]+:(\d+)/", self.text())
            if found:
                self.port = int(found.group(1))
                return
            if self.proc.poll() is not None or time.time() > deadline:
                self.proc.kill()
                raise ServerError(f"the server did not start:\n{self.text()[-3000:]}")
            time.sleep(0.05)

    def text(self):
        with open(self.log_path) as f:
            return f.read()

    def connection(self):
        if getattr(self.local, "conn", None) is None:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
            conn.connect()
            conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.local.conn = conn
        return self.local.conn

    def request(self, method, path, body=None, headers=None):
        """(status, headers dict, parsed JSON or text). A body that is not bytes is sent as JSON."""
        if body is not None and not isinstance(body, (bytes, str)):
            body = json.dumps(body)
        for attempt in range(2):  # a keep-alive connection the server closed: once more, fresh
            conn = self.connection()
            try:
                conn.request(method, path, body=body, headers=headers or {})
                response = conn.getresponse()
                data = response.read()
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                conn.close()
                self.local.conn = None
                if attempt == 1:
                    raise
        head = {k.lower(): v for k, v in response.getheaders()}
        if head.get("content-type", "").startswith("application/json"):
            return response.status, head, json.loads(data)
        return response.status, head, data.decode("utf-8", "replace")

    def translate(self, body):
        return self.request("POST", "/translate", body, {"Content-Type": "application/json"})

    def rss_kib(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))

    def stop(self, sig=signal.SIGTERM, timeout=120):
        """Sends `sig`; the exit code."""
        self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout=timeout)
        finally:
            self.log.close()


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def run_clients(server, clients, bodies_of, requests):
    """`clients` threads each sending up to `requests` POST /translate bodies (bodies_of(client,
    i); None ends that client early);
    (latencies in s, failures as strings, wall seconds)."""
    latencies, failures = [], []
    lock = threading.Lock()

    def client(c):
        for i in range(requests):
            body = bodies_of(c, i)
            if body is None:  # this client has no more to send
                break
            start = time.perf_counter()
            try:
                status, _, answer = server.translate(body)
                ok = status == 200
            except Exception as e:  # noqa: BLE001 -- every failure counts, none may pass
                status, answer, ok = None, repr(e), False
            took = time.perf_counter() - start
            with lock:
                latencies.append(took)
                if not ok:
                    failures.append(f"client {c} request {i}: {status} {answer}")

    threads = [threading.Thread(target=client, args=(c,)) for c in range(clients)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return latencies, failures, time.perf_counter() - start

