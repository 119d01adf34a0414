#!/usr/bin/env python3
"""The HTTP floor measured from outside the workbench, both sides of an exchange.

Builds Scripts/http_floor.c (libcurl), starts `mpin-workbench serve --port 0 --log-level warning`
on loopback, and sends keep-alive `GET /rps/clientSettings` in rounds: serially (curl_easy_perform)
and CONCURRENCY at once on one thread (libcurl's multi interface). For each round it reads the
server's CPU time from /proc/PID/stat before and after, and prints the CPU per exchange of the
client program and of the server process, with the medians over the rounds. This is the
independent check of the `HTTP floor` line of `serve --bench` (docs/benchmarks.md, "Benchmark" under `serve`).

    python3 Scripts/http_floor.py [--workbench .build/release/mpin-workbench] [--exchanges 5000]
                                  [--rounds 3] [--concurrency 16] [--peer] [--json]

With --peer it also runs nio-peer (built next to the workbench, Sources/nio-peer: a bare SwiftNIO
HTTP/1.1 server answering every request with a fixed 512-byte JSON body, the same NIO release as
the backend's) and measures it the same way in the same rounds, the two servers taking turns
(which goes first alternates): the server's CPU per GET beside the least a server on NIO's
HTTP/1.1 codec spends, and their ratio round by round, so the comparison holds when the machine's
speed drifts.

Only loopback is contacted; every round is bounded (the client's transfers have a 30 s limit, and
the script stops waiting after --timeout seconds).
"""

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time

from bench_common import bounded_integer, cpu_model, load_average

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def server_cpu_seconds(pid):
    """utime + stime of a process, in seconds (fields 14 and 15 of /proc/PID/stat)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(command, timeout):
    """A server (`serve`, or the peer) on a free loopback port; returns the process and its base URL."""
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = server.stdout.readline()
        if not line:
            break
        match = re.search(r"listening on (http://127\.0\.0\.1:\d+)", line)
        if match:
            return server, match.group(1)
    server.kill()
    sys.exit(f"http_floor.py: {' '.join(command)} did not report its address within {timeout} s")


def listing(rounds, key):
    """The rounds' values of one figure, for the text output."""
    return ", ".join(f"{r[key]:.1f}" for r in rounds)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workbench", default=os.path.join(ROOT, ".build", "release", "mpin-workbench"))
    parser.add_argument("--exchanges", type=bounded_integer("--exchanges", 1, 1_000_000), default=5000)
    parser.add_argument("--rounds", type=bounded_integer("--rounds", 1, 100), default=3)
    parser.add_argument("--concurrency", type=bounded_integer("--concurrency", 1, 256), default=16)
    parser.add_argument("--timeout", type=bounded_integer("--timeout", 1, 3600), default=300)
    parser.add_argument("--peer", action="store_true", help="also measure nio-peer (next to the workbench), turn about with it")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if not os.access(args.workbench, os.X_OK):
        sys.exit(f"http_floor.py: {args.workbench} is not an executable (build with `swift build -c release`)")
    peer = os.path.join(os.path.dirname(os.path.abspath(args.workbench)), "nio-peer")
    if args.peer and not os.access(peer, os.X_OK):
        sys.exit(f"http_floor.py: --peer needs {peer}, built with the workbench (`swift build -c release`)")

    with tempfile.TemporaryDirectory() as scratch:
        client = os.path.join(scratch, "http_floor")
        build = subprocess.run(["cc", "-O2", os.path.join(ROOT, "Scripts", "http_floor.c"), "-lcurl", "-o", client],
                               capture_output=True, text=True)
        if build.returncode != 0:
            sys.exit(f"http_floor.py: building Scripts/http_floor.c failed:\n{build.stderr}")
        servers = [("server", start_server([args.workbench, "serve", "--port", "0", "--log-level", "warning"], args.timeout))]
        if args.peer:
            servers.append(("peer", start_server([peer], args.timeout)))
        results = {}
        try:
            for mode, concurrency in (("serial", 0), (f"{args.concurrency} at once", args.concurrency)):
                rounds = []
                for number in range(args.rounds):
                    figures = {}
                    for name, (server, base) in (servers if number % 2 == 0 else list(reversed(servers))):
                        before = server_cpu_seconds(server.pid)
                        run = subprocess.run([client, base + "/rps/clientSettings", str(args.exchanges), str(concurrency)],
                                             capture_output=True, text=True, timeout=args.timeout)
                        after = server_cpu_seconds(server.pid)
                        if run.returncode != 0:
                            sys.exit(f"http_floor.py: the client failed against the {name}: {run.stderr.strip()}")
                        measured = dict(item.split("=") for item in run.stdout.split())
                        suffix = "" if name == "server" else "Peer"
                        figures["client" + suffix] = float(measured["client_cpu_us_per_exchange"])
                        figures[name] = (after - before) * 1e6 / args.exchanges
                        figures["perSecond" + suffix] = float(measured["exchanges_per_second"])
                    if args.peer and figures["peer"] > 0:
                        # Without a CPU tick of the peer's in the round (few exchanges), no ratio.
                        figures["ratio"] = figures["server"] / figures["peer"]
                    rounds.append(figures)
                results[mode] = rounds
        finally:
            for _, (server, _) in servers:
                server.send_signal(signal.SIGINT)
                try:
                    server.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    server.kill()

    keys = ("client", "server", "perSecond") + (("clientPeer", "peer", "perSecondPeer", "ratio") if args.peer else ())
    summary = {mode: {key: statistics.median(values) for key in keys if (values := [r[key] for r in rounds if key in r])}
               for mode, rounds in results.items()}
    if args.json:
        print(json.dumps({"exchanges": args.exchanges, "rounds": args.rounds, "cpu": cpu_model(), "load": load_average(),
                          "results": results, "medians": summary}))
        return
    print(f"{cpu_model()}, {os.cpu_count()} CPUs, load {load_average()}; {args.rounds} rounds of {args.exchanges} "
          f"GET /rps/clientSettings (keep-alive); CPU time per exchange in µs, medians (rounds):")
    for mode, rounds in results.items():
        median = summary[mode]
        print(f"  {mode:>12}: client {median['client']:6.1f}, server {median['server']:6.1f}, "
              f"{median['perSecond']:7.0f} exchanges/s  "
              f"(client {listing(rounds, 'client')}; server {listing(rounds, 'server')})")
        if args.peer:
            ratios = ", ".join(f"{r['ratio']:.2f}" if "ratio" in r else "-" for r in rounds)
            ratio = f"{median['ratio']:.2f}" if "ratio" in median else "- (no CPU tick of the peer's; more --exchanges)"
            print(f"  {'':>12}  peer: server {median['peer']:6.1f} (client {median['clientPeer']:6.1f}, "
                  f"{median['perSecondPeer']:7.0f} exchanges/s); server / peer {ratio} (rounds {ratios})")


if __name__ == "__main__":
    main()
