#!/usr/bin/env python3
"""Measure `mpin-workbench` on big cassettes: wall time, MB/s and peak RSS per file size.

Usage:
    python3 Scripts/bench_cassettes.py [PATH_TO_MPIN_WORKBENCH] [--sizes 1,10,100]
        [--recording Recordings/authenticate.json] [--timeout SECONDS] [--proxy | --only-proxy] [--json]

PATH_TO_MPIN_WORKBENCH defaults to .build/release/mpin-workbench (build it with `make build`).

For each size (MB) of `--sizes`, two valid cassettes are made in a temporary directory (removed
afterwards), each replaying cleanly:

* "long string": the committed recording with one long member added to its first JSON response
  body (the client settings, in its `text` and its `json` view alike; the SDK ignores a member it
  does not know); the value mixes ASCII, multibyte characters and copies of a secret the default
  redaction names;
* "many events": a scenario of one registration and as many logins as give the size, recorded by
  `mpin-workbench record --embedded` (about 20 events and 16 KB per login).

The "long string" file is written by a child Python process, so that this process stays small:
Linux counts the memory of the process that forks and executes a command in the command's peak RSS,
and a parent holding a 200 MB document would be measured in every row. A first row per command
runs on the committed recording itself: the fixed cost (start-up, the runtime) that every row holds.

Each of `cassette redact --redact default --out OUT`, `cassette lint`, `cassette show`,
`cassette check` and `replay` then runs on each file in a process of its own, its peak RSS read with
`os.wait4` (the kernel's `ru_maxrss` of that child) and killed after `--timeout` seconds. Printed: a
markdown table (input, size, command, exit status, seconds, MB/s, peak RSS, RSS / file size), with
the date, the CPU model and the load average; `--json` prints one JSON object instead. Every command
is expected to exit 0 on these files; another status is printed as it is.
With `--proxy` (or `--only-proxy`, alone) one more row per size: `serve` on a free loopback port,
`proxy` in front of it on another, and `record` running the many-logins scenario through the proxy;
the proxy then gets SIGINT, writes its cassette and exits, and its peak RSS is set against the
cassette's size. Every server listens on 127.0.0.1 and every child is killed after `--timeout`.

A benchmark, not a test: exit status 0 unless the generator fails.
"""

import argparse
import datetime
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import tempfile

from bench_common import bounded_integer, cpu_model, integer_list, load_average, measure

SIZE_RANGE = (1, 1_000)  # MB
TIMEOUT_RANGE = (1, 86_400)
MB = 1_000_000


def write_cassette(document, path):
    """Writes the cassette as the workbench does: sorted members, two-space indent, a final newline."""
    with open(path, "w", encoding="utf-8") as out:
        json.dump(document, out, indent=2, sort_keys=True, ensure_ascii=False, separators=(",", ": "))
        out.write("\n")
    return os.path.getsize(path)


def long_string_cassette(recording, megabytes, path):
    """The recording with a long member added to its first JSON response body (text and json view)."""
    document = json.loads(json.dumps(recording))
    for event in document["events"]:
        body = (event.get("response") or {}).get("body") or {}
        if isinstance(body.get("json"), dict) and body["json"] and body.get("text", "").rstrip().endswith("}"):
            break
    else:
        raise SystemExit("bench_cassettes: the recording has no non-empty JSON object response body")
    unit = "abcdef0123456789-é€😀 "  # ASCII, 2-, 3- and 4-byte characters
    secret = find_secret(document)
    if secret:
        unit += secret + " "
    # The member is written twice (escaped text and json view): each takes half the size.
    repeat = max(1, (megabytes * MB) // (2 * len(unit.encode("utf-8"))))
    value = unit * repeat
    body["json"][PADDING] = value
    text = body["text"].rstrip()
    body["text"] = text[:-1] + ", " + json.dumps(PADDING) + ": " + json.dumps(value, ensure_ascii=False) + "}"
    return write_cassette(document, path)


PADDING = "benchPadding"


def find_secret(document):
    """A value of a call argument named pin or token, else None (so redaction has work to do)."""
    for event in document["events"]:
        for field in ("arguments", "outputs"):
            members = event.get(field)
            if isinstance(members, dict):
                for name in ("token", "pin", "regOTT", "authOTT"):
                    value = members.get(name)
                    if isinstance(value, str) and len(value) >= 4:
                        return value
    return None


def logins_scenario(logins):
    """A scenario: register bob, then log in `logins` times with the right PIN."""
    steps = [
        "  - sdk: initialize\n    with: {backend: $backend}",
        "  - sdk: makeNewUser\n    with: {id: bob}",
        "  - sdk: startRegistration\n    with: {user: bob}\n    expect: {state: ACTIVATED}",
        "  - sdk: confirmRegistration\n    with: {user: bob}",
        "  - sdk: finishRegistration\n    with: {user: bob, pin: \"1234\"}\n    expect: {state: REGISTERED}",
    ]
    login = ("  - sdk: startAuthentication\n    with: {user: bob}\n"
             "  - sdk: finishAuthentication\n    with: {user: bob, pin: \"1234\"}")
    return "name: many-logins\nsteps:\n" + "\n".join(steps + [login] * logins) + "\n"


def record_logins(tool, logins, path, timeout, directory):
    """Records the scenario of `logins` logins into `path`; its size in bytes."""
    script = os.path.join(directory, "many-logins.yaml")
    with open(script, "w", encoding="utf-8") as out:
        out.write(logins_scenario(logins))
    status, _, _ = measure([tool, "record", script, "--embedded", "--out", path], timeout,
                           os.path.join(directory, "record.log"))
    if status != 0:
        with open(os.path.join(directory, "record.log"), encoding="utf-8", errors="replace") as log:
            raise SystemExit(f"bench_cassettes: recording {logins} logins failed ({status}): {log.read()[-2000:]}")
    return os.path.getsize(path)


def many_events_cassette(tool, megabytes, path, timeout, directory):
    """A recorded scenario of about `megabytes` MB: the size of one login is measured on 20 first."""
    probe = os.path.join(directory, "probe.json")
    small, large = record_logins(tool, 1, probe, timeout, directory), record_logins(tool, 21, probe, timeout, directory)
    os.remove(probe)
    per_login = (large - small) / 20
    logins = max(1, round((megabytes * MB - small) / per_login))
    return record_logins(tool, logins, path, timeout, directory)


def free_port():
    """A loopback port that was free a moment ago (the benchmark's servers listen there)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_line(path, text, process, seconds):
    """Waits until the file at `path` holds `text` (a server's banner), at most `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return False
        with open(path, encoding="utf-8", errors="replace") as log:
            if text in log.read():
                return True
        time.sleep(0.05)
    return False


def proxy_row(tool, megabytes, timeout, directory):
    """The proxy's peak RSS while it records a client's `megabytes` MB session and writes it.

    `serve` runs the reference backend on one loopback port, `proxy` forwards to it from another,
    and `record` runs the many-logins scenario against the proxy; then the proxy gets SIGINT, writes
    its cassette and exits, and its peak RSS is read with `os.wait4`."""
    probe = os.path.join(directory, "probe.json")
    small, large = record_logins(tool, 1, probe, timeout, directory), record_logins(tool, 21, probe, timeout, directory)
    os.remove(probe)
    logins = max(1, round((megabytes * MB - small) / ((large - small) / 20)))
    script = os.path.join(directory, "many-logins.yaml")
    with open(script, "w", encoding="utf-8") as out:
        out.write(logins_scenario(logins))
    backend_port, proxy_port = free_port(), free_port()
    cassette = os.path.join(directory, "proxied.json")
    logs = {name: os.path.join(directory, name + ".log") for name in ("serve", "proxy", "client")}
    with open(logs["serve"], "wb") as serve_log, open(logs["proxy"], "wb") as proxy_log:
        backend = subprocess.Popen([tool, "serve", "--port", str(backend_port)], stdout=serve_log,
                                   stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        proxy = subprocess.Popen(
            [tool, "proxy", "--upstream", f"http://127.0.0.1:{backend_port}", "--port", str(proxy_port),
             "--out", cassette], stdout=proxy_log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        try:
            if not (wait_for_line(logs["serve"], "listening on", backend, 60)
                    and wait_for_line(logs["proxy"], "listening on", proxy, 60)):
                raise SystemExit("bench_cassettes: the backend or the proxy did not start; see " + directory)
            start = time.perf_counter()
            client, _, _ = measure([tool, "record", script, "--backend", f"http://127.0.0.1:{proxy_port}",
                                    "--out", os.path.join(directory, "client.json")], timeout, logs["client"])
            proxy.send_signal(signal.SIGINT)
            deadline = time.perf_counter() + timeout
            while True:
                pid, status, usage = os.wait4(proxy.pid, os.WNOHANG)
                if pid == proxy.pid:
                    break
                if time.perf_counter() > deadline:
                    proxy.kill()
                time.sleep(0.02)
            seconds = time.perf_counter() - start
            proxy.returncode = os.waitstatus_to_exitcode(status)
        finally:
            for process in (proxy, backend):
                if process.poll() is None:
                    process.kill()
                    process.wait()
    size = os.path.getsize(cassette) if os.path.exists(cassette) else 0
    return {"input": f"proxy, {logins} logins", "megabytes": megabytes, "bytes": size, "command": "proxy",
            "status": proxy.returncode if client == 0 else f"client {client}", "seconds": round(seconds, 3),
            "mb_per_s": round(size / MB / seconds, 2) if seconds > 0 else None,
            "rss_mib": round(usage.ru_maxrss / 1024, 1),
            "rss_per_size": round(usage.ru_maxrss * 1024 / size, 2) if size else None,
            "added_rss_per_size": None}


def commands(tool, path, out):
    return [
        ("cassette redact", [tool, "cassette", "redact", path, "--redact", "default", "--out", out]),
        ("cassette lint", [tool, "cassette", "lint", path]),
        ("cassette show", [tool, "cassette", "show", path]),
        ("cassette check", [tool, "cassette", "check", path]),
        ("replay", [tool, "replay", path]),
    ]


def main():
    parser = argparse.ArgumentParser(description="Time and memory of cassette commands on big cassettes.")
    parser.add_argument("tool", nargs="?", default=".build/release/mpin-workbench")
    parser.add_argument("--sizes", type=integer_list("--sizes", *SIZE_RANGE), default=[1, 10, 100],
                        help="file sizes in MB, comma-separated (default 1,10,100)")
    parser.add_argument("--recording", default="Recordings/authenticate.json")
    parser.add_argument("--timeout", type=bounded_integer("--timeout", *TIMEOUT_RANGE), default=600,
                        help="seconds each command may run before it is killed (default 600)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    parser.add_argument("--proxy", action="store_true",
                        help="also measure `proxy` recording a client's session of each size (its peak RSS)")
    parser.add_argument("--only-proxy", action="store_true", help="measure `proxy` alone")
    parser.add_argument("--generate-long-string", nargs=2, metavar=("MB", "PATH"),
                        help="only write the long-string cassette of MB megabytes to PATH (the benchmark's child)")
    arguments = parser.parse_args()
    if not arguments.generate_long_string and not os.access(arguments.tool, os.X_OK):
        sys.exit(f"bench_cassettes: {arguments.tool} is not an executable (build it with `make build`)")
    if arguments.generate_long_string:
        megabytes, path = arguments.generate_long_string
        megabytes = bounded_integer("--generate-long-string", *SIZE_RANGE)(megabytes)
        with open(arguments.recording, encoding="utf-8") as source:
            long_string_cassette(json.load(source), megabytes, path)
        return

    rows = []
    fixed_kib = {}  # each command's peak RSS on the committed recording: the fixed cost
    directory = tempfile.mkdtemp(prefix="bench-cassettes-")
    try:
        inputs = [] if arguments.only_proxy else [("committed recording", 0)] + [
            (kind, megabytes) for megabytes in arguments.sizes for kind in ("long string", "many events")]
        arguments.proxy = arguments.proxy or arguments.only_proxy
        for kind, megabytes in inputs:
            path = os.path.join(directory, f"{kind.replace(' ', '-')}-{megabytes}MB.json")
            if kind == "committed recording":
                shutil.copyfile(arguments.recording, path)
            elif kind == "long string":
                generated = subprocess.run(
                    [sys.executable, __file__, "--generate-long-string", str(megabytes), path,
                     "--recording", arguments.recording], check=False, stdout=subprocess.DEVNULL)
                if generated.returncode != 0:
                    raise SystemExit(f"bench_cassettes: generating {path} failed")
            else:
                many_events_cassette(arguments.tool, megabytes, path, arguments.timeout, directory)
            size = os.path.getsize(path)
            for name, command in commands(arguments.tool, path, path + ".redacted.json"):
                status, rss_kib, seconds = measure(command, arguments.timeout, os.path.join(directory, "log"))
                if kind == "committed recording":
                    fixed_kib[name] = rss_kib
                rows.append({
                    "input": kind, "megabytes": megabytes, "bytes": size, "command": name,
                    "status": "timeout" if status is None else status, "seconds": round(seconds, 3),
                    "mb_per_s": round(size / MB / seconds, 2) if seconds > 0 else None,
                    "rss_mib": round(rss_kib / 1024, 1),
                    "rss_per_size": round(rss_kib * 1024 / size, 2),
                    "added_rss_per_size": round((rss_kib - fixed_kib.get(name, 0)) * 1024 / size, 2),
                })
                print(f"  {kind} {megabytes} MB {name}: {seconds:.2f} s", file=sys.stderr)
            os.remove(path)
            if os.path.exists(path + ".redacted.json"):
                os.remove(path + ".redacted.json")
        if arguments.proxy:
            for megabytes in arguments.sizes:
                rows.append(proxy_row(arguments.tool, megabytes, arguments.timeout, directory))
                print(f"  proxy {megabytes} MB: {rows[-1]['seconds']:.2f} s", file=sys.stderr)
    finally:
        shutil.rmtree(directory, ignore_errors=True)

    machine = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
               "cpu": cpu_model(), "cores": os.cpu_count(), "load": load_average()}
    if arguments.json:
        print(json.dumps({"machine": machine, "rows": rows}, indent=2))
        return
    print(f"{machine['date']}, {machine['cpu']}, {machine['cores']} cores, load {machine['load']}")
    print()
    print("| input | MB | command | status | s | MB/s | peak RSS MiB | RSS / size | (RSS - fixed) / size |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        print(f"| {row['input']} | {row['bytes'] / MB:.1f} | `{row['command']}` | {row['status']} | "
              f"{row['seconds']:.2f} | {row['mb_per_s']} | {row['rss_mib']} | {row['rss_per_size']} | "
              f"{'' if row['added_rss_per_size'] is None else row['added_rss_per_size']} |")


if __name__ == "__main__":
    main()
