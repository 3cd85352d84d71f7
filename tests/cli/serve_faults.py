#!/usr/bin/env python3
"""Fault tests of `closure serve`, on loopback only, each bounded in count and time:

    serve_faults.py CLOSURE_BIN WORK_DIR SCENARIO

SCENARIO: kill9 (appends, kill -9, restart: every acknowledged edge is there), malformed
(garbage, truncated and oversized requests, bad labels: 4xx, counted, the process lives),
slow (slow clients hold connections and time out while others are answered), reload (the
index file replaced during load and SIGHUP: no failed request, the new graph answered),
fulldisk (the journal cannot grow: 507, nothing half-kept, reads go on), term (SIGTERM
answers, folds the journal into the index, exits 0), port (a taken port: exit 4). Exit status 0 when all held.
"""
import http.client
import json
import os
import random
import resource
import signal
import socket
import subprocess
import sys
import threading
import time

BIN, WORK, SCENARIO = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(WORK, exist_ok=True)
signal.alarm(120)  # no scenario may hang the suite


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def chain_index(name, n, extra=""):
    g = os.path.join(WORK, name + ".txt")
    with open(g, "w") as f:
        for i in range(1, n):
            f.write(f"c{i} c{i - 1}\n")
        f.write(extra)
    idx = os.path.join(WORK, name + ".idx")
    subprocess.run([BIN, "index", "-q", g, "-o", idx], check=True)
    for leftover in (idx + ".journal",):
        if os.path.exists(leftover):
            os.unlink(leftover)
    return idx


class Server:
    def __init__(self, idx, *args, preexec=None):
        self.port_file = os.path.join(WORK, "port-%d" % random.randrange(1 << 30))
        self.proc = subprocess.Popen(
            [BIN, "serve", idx, "--port", "0", "--port-file", self.port_file, "-q", *args],
            preexec_fn=preexec)
        deadline = time.time() + 20
        while not os.path.exists(self.port_file):
            if self.proc.poll() is not None or time.time() > deadline:
                fail("serve did not start (status %s)" % self.proc.poll())
            time.sleep(0.02)
        self.port = int(open(self.port_file).read())

    def conn(self):
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)

    def ask(self, method, target, body=None, conn=None):
        c = conn or self.conn()
        c.request(method, target, body=body, headers={"Content-Type": "application/json"})
        r = c.getresponse()
        data = r.read()
        if conn is None:
            c.close()
        return r.status, json.loads(data) if data and data[:1] in b"{[" else data

    def stop(self, sig=signal.SIGTERM):
        self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            fail("serve did not stop on signal %d" % sig)


def all_reach(server, pairs):
    if not pairs:
        return True
    status, a = server.ask("POST", "/reaches", json.dumps(pairs))
    return status == 200 and all(x is True for x in a["answers"])


def kill9():
    idx = chain_index("k9", 200)
    acknowledged = []
    rounds = int(os.environ.get("CLOSURE_KILL9_ROUNDS", "10"))
    for round_ in range(rounds):
        s = Server(idx)
        if not all_reach(s, acknowledged):
            fail("round %d: an acknowledged edge was lost after kill -9" % round_)
        stop_at = time.time() + random.Random(round_).uniform(0.05, 0.3)
        c = s.conn()
        i = 0
        try:
            while time.time() < stop_at:
                edge = [f"r{round_}_{i}", f"c{i % 200}"]
                status, _ = s.ask("POST", "/edges", json.dumps([edge]), conn=c)
                if status == 200:
                    acknowledged.append(edge)
                i += 1
            # Kill while a request is likely in flight.
            c.request("POST", "/edges", body=json.dumps([[f"r{round_}_x", "c1"]]))
        except (OSError, http.client.HTTPException):
            pass
        s.proc.send_signal(signal.SIGKILL)
        s.proc.wait()
    s = Server(idx)
    ok = all_reach(s, acknowledged)
    s.stop()
    if not ok:
        fail("an acknowledged edge was lost")
    print(f"kill9: {rounds} kill -9 restarts, {len(acknowledged)} acknowledged appends, 0 lost")


def raw(port, data, read=True):
    with socket.create_connection(("127.0.0.1", port), timeout=5) as k:
        k.sendall(data)
        if not read:
            return b""
        k.shutdown(socket.SHUT_WR)
        out = b""
        try:
            while True:
                chunk = k.recv(65536)
                if not chunk:
                    break
                out += chunk
        except OSError:
            pass
        return out


def malformed():
    idx = chain_index("mal", 50)
    s = Server(idx, "--max-body", "65536")
    cases = [
        (b"NOT HTTP AT ALL\r\n\r\n", b"400"),
        (b"GET /reaches?from=c1&to=c0 HTTP/1.1\r\nHost: x\r\n", b""),  # truncated: no answer due
        (b"GET /" + b"a" * 20000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", b"431"),
        (b"POST /reaches HTTP/1.1\r\nHost: x\r\nContent-Length: 999999\r\n\r\n" + b"[" * 70000,
         b"413"),
        (b"GET /reaches?from=%ff%fe&to=c0 HTTP/1.1\r\nHost: x\r\n\r\n", b"400"),
        (b"GET /reaches?from=%zz&to=c0 HTTP/1.1\r\nHost: x\r\n\r\n", b"400"),
        (b"GET /descendants?of=c1&limit=-5 HTTP/1.1\r\nHost: x\r\n\r\n", b"400"),
        (b"POST /edges HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n[[1]]", b"400"),
        (b"POST /edges HTTP/1.1\r\nHost: x\r\nContent-Length: 12\r\n\r\n[[\"a\",\"\"]]xx", b"400"),
        (b"POST /reaches HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\n[[", b"400"),
        (b"POST /reaches HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n[[", b""),  # cut short
        (b"GET /reaches HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", b"400"),
        (b"\x00\xff\x00\xff\r\n\r\n", b"400"),
    ]
    for data, want in cases:
        got = raw(s.port, data)
        if want and want not in got[:20]:
            fail(f"{data[:40]!r}: expected {want!r}, got {got[:80]!r}")
    # A transfer coding other than chunked alone: 400 and closed, so that a request in its
    # body is never run as the next one (request smuggling).
    inner = (b'POST /edges HTTP/1.1\r\nHost: x\r\nContent-Length: 18\r\nConnection: close'
             b'\r\n\r\n[["c1","smuggled"]]')
    for coding in (b"gzip", b"identity", b"chunked, chunked", b"gzip, chunked"):
        got = raw(s.port, b"POST /reaches HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: " + coding +
                  b"\r\n\r\n" + inner)
        if not got.startswith(b"HTTP/1.1 400") or got.count(b"HTTP/1.1 ") != 1:
            fail(f"Transfer-Encoding {coding!r}: {got[:200]!r}")
    status, body = s.ask("GET", "/reaches?from=c1&to=smuggled")
    if status != 200 or body.get("reaches") is not None:
        fail(f"the smuggled append was run: /reaches answered {status} {body}")
    # Random bytes: some answer, never a dead process.
    rng = random.Random(7)
    for _ in range(200):
        blob = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300)))
        raw(s.port, b"POST /reaches HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n" % len(blob)
            + blob)
        raw(s.port, blob)
    status, health = s.ask("GET", "/health")
    _, metrics = s.ask("GET", "/metrics")
    text = metrics.decode() if isinstance(metrics, bytes) else str(metrics)
    for counter in ("closure_bad_requests_total", "closure_header_too_large_total",
                    "closure_body_too_large_total"):
        line = [x for x in text.splitlines() if x.startswith(counter + " ")]
        if not line or int(line[0].split()[1]) < 1:
            fail(f"{counter} not counted")
    code = s.stop()
    if status != 200 or code != 0:
        fail(f"health {status}, exit {code}")
    print(f"malformed: {len(cases)} crafted and 400 random requests, the service lived")


def slow():
    idx = chain_index("slow", 50)
    s = Server(idx, "--header-timeout", "0.5", "--max-connections", "16")
    holders = []
    for _ in range(8):
        k = socket.create_connection(("127.0.0.1", s.port), timeout=5)
        k.sendall(b"GET /reaches?from=c1")  # and nothing more
        holders.append(k)
    t0 = time.time()
    for i in range(50):  # others are answered meanwhile
        status, a = s.ask("GET", "/reaches?from=c%d&to=c0" % (i % 40 + 1))
        if status != 200 or a["reaches"] is not True:
            fail("a request was not answered while slow clients held connections: %s %r" % (status, a))
    closed = 0
    for k in holders:
        try:
            data = k.recv(4096)
            closed += 1 if (data == b"" or b"408" in data) else 0
        except socket.timeout:
            pass
        k.close()
    elapsed = time.time() - t0
    _, metrics = s.ask("GET", "/metrics")
    timeouts = [int(x.split()[1]) for x in metrics.decode().splitlines()
                if x.startswith("closure_timeouts_total ")][0]
    s.stop()
    if closed != len(holders) or timeouts < len(holders) or elapsed > 10:
        fail(f"slow clients: {closed} of {len(holders)} closed, {timeouts} timeouts counted")
    print(f"slow: {len(holders)} slowloris connections closed by the timeout, 50 others answered")


def reload():
    idx = chain_index("rel", 100)
    s = Server(idx, "--read-only")
    status, a = s.ask("POST", "/edges", json.dumps([["x", "c0"]]))
    if status != 409 or "--read-only" not in json.dumps(a):
        fail(f"an append to a --read-only index: {status} {a}")
    errors, answered, stop = [], [0], threading.Event()

    def load():
        c = s.conn()
        while not stop.is_set():
            try:
                status, a = s.ask("POST", "/reaches", json.dumps([["c50", "c0"]] * 50), conn=c)
                if status != 200 or a["answers"][0] is not True:
                    errors.append(status)
                answered[0] += 1
            except Exception as e:  # noqa: BLE001 - every failure counts
                errors.append(repr(e))
                c = s.conn()

    workers = [threading.Thread(target=load) for _ in range(4)]
    for w in workers:
        w.start()
    time.sleep(0.3)
    bigger = chain_index("rel_new", 300)
    os.replace(bigger, idx)  # another process's rebuild, renamed into place
    s.proc.send_signal(signal.SIGHUP)
    deadline = time.time() + 10
    while s.ask("GET", "/facts")[1]["vertices"] != 300:
        if time.time() > deadline:
            fail("SIGHUP did not load the new index")
        time.sleep(0.05)
    time.sleep(0.3)
    stop.set()
    for w in workers:
        w.join()
    _, a = s.ask("GET", "/reaches?from=c299&to=c0")
    s.stop()
    if errors or a["reaches"] is not True:
        fail(f"errors during the reload: {errors[:5]}")
    print(f"reload: {answered[0]} batches answered across an index replaced under load, 0 failed")


def fulldisk():
    idx = chain_index("full", 50)
    size = os.path.getsize(idx)

    def limit():  # the journal may grow to about 2 KiB: then the disk is "full"
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (max(size, 1 << 20), max(size, 1 << 20)))

    # The index must fit under the limit; the journal then hits it with large appends.
    s = Server(idx, "--fold-after", str(1 << 40), preexec=limit)
    acknowledged, refused = [], 0
    for i in range(40):
        edges = [[f"n{i}_{j}_" + "x" * 300, "c3"] for j in range(200)]  # about 60 KB
        status, _ = s.ask("POST", "/edges", json.dumps(edges))
        if status == 200:
            acknowledged.extend(edges)
        elif status == 507:
            refused += 1
        else:
            fail(f"append answered {status}")
    status, a = s.ask("GET", "/reaches?from=c10&to=c0")
    if refused == 0 or status != 200 or a["reaches"] is not True:
        fail(f"full disk: {refused} refused, reads answered {status}")
    s.proc.send_signal(signal.SIGKILL)
    s.proc.wait()
    s = Server(idx)  # no limit now: every acknowledged append is back, no refused one
    ok = all_reach(s, acknowledged)
    _, facts = s.ask("GET", "/facts")
    s.stop(signal.SIGKILL)
    if not ok or facts["vertices"] != 50 + len(acknowledged):
        fail(f"after the full disk: {facts['vertices']} vertices, {len(acknowledged)} acknowledged")
    print(f"fulldisk: {len(acknowledged)} appends kept, {refused} refused with 507, reads went on")


def term():
    idx = chain_index("term", 30)
    s = Server(idx)
    status, _ = s.ask("POST", "/edges", json.dumps([["top", "c29"], ["c0", "top"]]))
    code = s.stop()
    journal = idx + ".journal"
    out = subprocess.run([BIN, "query", "-q", idx, "c5", "top"], capture_output=True, text=True)
    if status != 200 or code != 0 or out.stdout.strip() != "c5 top yes":
        fail(f"SIGTERM: status {status}, exit {code}, query says {out.stdout!r}")
    if os.path.getsize(journal) > 16:
        fail("the journal was not folded into the index")
    print("term: SIGTERM exited 0 with the append folded into the index")


def port():
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    out = subprocess.run([BIN, "serve", os.path.join(os.path.dirname(__file__), "..", "..",
                                                     "data", "diamond.txt"),
                          "--port", str(taken.getsockname()[1])],
                         capture_output=True, text=True, timeout=20)
    if out.returncode != 4 or "in use" not in out.stderr:
        fail(f"a taken port: exit {out.returncode}, {out.stderr!r}")
    print("port: a taken port is refused with exit 4")


def twice():
    """One index, one service: a second `closure serve` of it, and `closure index` written
    over it, are refused while the first runs (its fold would drop what they add); after
    it stops both work, and nothing the first acknowledged is lost."""
    idx = chain_index("twice", 20)
    first = Server(idx)
    status, _ = first.ask("POST", "/edges", json.dumps([["a1", "c19"]]))
    second = subprocess.run([BIN, "serve", idx, "--port", "0", "-q"], capture_output=True,
                            text=True, timeout=20)
    new = os.path.join(WORK, "twice-new.txt")
    with open(new, "w") as f:
        f.write("b1 c19\n")
    offline = subprocess.run([BIN, "index", "-q", "--append", idx, new, "-o", idx],
                             capture_output=True, text=True, timeout=20)
    if status != 200 or second.returncode != 2 or "held by another process" not in second.stderr:
        fail(f"a second serve: exit {second.returncode}, {second.stderr!r}")
    if offline.returncode != 2 or "held by another process" not in offline.stderr:
        fail(f"index --append under a service: exit {offline.returncode}, {offline.stderr!r}")
    if first.stop() != 0:
        fail("the first service did not exit 0")
    subprocess.run([BIN, "index", "-q", "--append", idx, new, "-o", idx], check=True, timeout=20)
    out = subprocess.run([BIN, "query", "-q", idx, "--pairs", "-"], input="a1 c0\nb1 c0\n",
                         capture_output=True, text=True, timeout=20)
    if out.stdout != "a1 c0 yes\nb1 c0 yes\n":
        fail(f"after the service: {out.stdout!r}")
    print("twice: a second service and an append in place refused while one runs, none lost")


{"port": port, "kill9": kill9, "malformed": malformed, "slow": slow, "reload": reload,
 "fulldisk": fulldisk, "term": term, "twice": twice}[SCENARIO]()
