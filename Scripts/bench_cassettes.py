#!/usr/bin/env python3
"""Measure `mpin-workbench` on big cassettes: wall time, MB/s and peak RSS per file size.

Usage:
    python3 Scripts/bench_cassettes.py [PATH_TO_MPIN_WORKBENCH] [--sizes 1,10,100]
        [--recording Recordings/authenticate.json] [--timeout SECONDS] [--json]

PATH_TO_MPIN_WORKBENCH defaults to .build/release/mpin-workbench (build it with `make build`).

For each size (MB) of `--sizes`, two cassettes are generated from a committed recording into a
temporary directory (removed afterwards):

* "long string": the recording with one JSON body member (the first response's `appID`, in its
  `text` and its `json` view alike) made long enough that the file has the size; the value mixes
  ASCII, multibyte characters and copies of a secret the default redaction names;
* "many events": the recording's events repeated until the file has the size.

Each of `cassette redact --redact default --out OUT`, `cassette lint`, `cassette show`,
`cassette check` and `replay` then runs on each file in a process of its own, its peak RSS read with
`os.wait4` (the kernel's `ru_maxrss` of that child) and killed after `--timeout` seconds. Printed: a
markdown table (input, size, command, exit status, seconds, MB/s, peak RSS, RSS / file size), with
the date, the CPU model and the load average; `--json` prints one JSON object instead. An exit
status other than 0 is printed as it is (e.g. `replay` of a cassette altered this way diverges, and
`check` may find the long value malformed): the figure is the time taken to read and judge the file.
A benchmark, not a test: exit status 0 unless the generator fails.
"""

import argparse
import datetime
import json
import os
import shutil
import sys
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
    """The recording with the first response `appID` member made long (text and json view)."""
    document = json.loads(json.dumps(recording))
    for event in document["events"]:
        body = event.get("response", {}).get("body", {})
        if isinstance(body.get("json"), dict) and "appID" in body["json"]:
            break
    else:
        raise SystemExit("bench_cassettes: the recording has no response body with an appID member")
    old = body["json"]["appID"]
    unit = "abcdef0123456789-é€😀 "  # ASCII, 2-, 3- and 4-byte characters
    secret = find_secret(document)
    if secret:
        unit += secret + " "
    repeat = max(1, (megabytes * MB) // len(unit.encode("utf-8")))
    value = unit * repeat
    body["json"]["appID"] = value
    body["text"] = body["text"].replace(json.dumps(old), json.dumps(value, ensure_ascii=False), 1)
    return write_cassette(document, path)


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


def many_events_cassette(recording, megabytes, path):
    """The recording with its events repeated until the file is about `megabytes` MB."""
    document = json.loads(json.dumps(recording))
    events = recording["events"]
    one = len(json.dumps(recording, indent=2).encode("utf-8"))
    copies = max(1, round(megabytes * MB / one))
    document["events"] = [json.loads(json.dumps(event)) for _ in range(copies) for event in events]
    return write_cassette(document, path)


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
    arguments = parser.parse_args()
    if not os.access(arguments.tool, os.X_OK):
        sys.exit(f"bench_cassettes: {arguments.tool} is not an executable (build it with `make build`)")
    with open(arguments.recording, encoding="utf-8") as source:
        recording = json.load(source)

    rows = []
    directory = tempfile.mkdtemp(prefix="bench-cassettes-")
    try:
        for megabytes in arguments.sizes:
            for kind, generate in (("long string", long_string_cassette), ("many events", many_events_cassette)):
                path = os.path.join(directory, f"{kind.replace(' ', '-')}-{megabytes}MB.json")
                size = generate(recording, megabytes, path)
                for name, command in commands(arguments.tool, path, path + ".redacted.json"):
                    status, rss_kib, seconds = measure(command, arguments.timeout, os.path.join(directory, "log"))
                    rows.append({
                        "input": kind, "megabytes": megabytes, "bytes": size, "command": name,
                        "status": "timeout" if status is None else status, "seconds": round(seconds, 3),
                        "mb_per_s": round(size / MB / seconds, 2) if seconds > 0 else None,
                        "rss_mib": round(rss_kib / 1024, 1),
                        "rss_per_size": round(rss_kib * 1024 / size, 2),
                    })
                    print(f"  {kind} {megabytes} MB {name}: {seconds:.2f} s", file=sys.stderr)
                os.remove(path)
                if os.path.exists(path + ".redacted.json"):
                    os.remove(path + ".redacted.json")
    finally:
        shutil.rmtree(directory, ignore_errors=True)

    machine = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
               "cpu": cpu_model(), "cores": os.cpu_count(), "load": load_average()}
    if arguments.json:
        print(json.dumps({"machine": machine, "rows": rows}, indent=2))
        return
    print(f"{machine['date']}, {machine['cpu']}, {machine['cores']} cores, load {machine['load']}")
    print()
    print("| input | MB | command | status | s | MB/s | peak RSS MiB | RSS / size |")
    print("|---|---:|---|---:|---:|---:|---:|---:|")
    for row in rows:
        print(f"| {row['input']} | {row['bytes'] / MB:.1f} | `{row['command']}` | {row['status']} | "
              f"{row['seconds']:.2f} | {row['mb_per_s']} | {row['rss_mib']} | {row['rss_per_size']} |")


if __name__ == "__main__":
    main()
