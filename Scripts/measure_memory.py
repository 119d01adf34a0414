#!/usr/bin/env python3
"""Measure the peak resident memory (RSS) and wall time of `mpin-workbench` commands.

Usage:
    python3 Scripts/measure_memory.py [PATH_TO_MPIN_WORKBENCH] [--counts 1000,10000,100000]
        [--suite mpin-two-pass] [--cassettes Recordings] [--replays 1,10,100] [--timeout SECONDS] [--json]

PATH_TO_MPIN_WORKBENCH defaults to .build/release/mpin-workbench (build it with `make build`).

Measured, each command in a process of its own, its peak RSS read with `os.wait4` (the kernel's
`ru_maxrss` of that child, in KiB on Linux):

* `vectors generate --suite SUITE --count N` for each N of `--counts`, into a temporary directory
  (removed afterwards). The generator streams the file to disk as the tests are computed, so the
  peak should not grow with N; the file's size is printed beside it.
* `replay CASSETTES --bench R` for each R of `--replays`: one process replays every cassette once
  (checked: it must report no failure), then R more times (the benchmark loop). One process
  repeating the replays finds leaks that a fresh process per replay would hide: memory that grows
  with R is retained across replays. `--cassettes` defaults to Recordings/, the committed cassettes
  (the scenarios `make demo` records and replays).

Prints a markdown table (command, peak RSS in MiB, wall time), with the date, the CPU model and
the load average; `--json` prints one JSON object instead. Exit status 1 when a command fails.
"""

import argparse
import datetime
import json
import os
import shutil
import sys
import tempfile

from bench_common import bounded_integer, cpu_model, integer_list, load_average, measure

COUNT_RANGE = (0, 100_000)      # `vectors generate --count`
REPLAYS_RANGE = (1, 1_000)      # `replay --bench`
TIMEOUT_RANGE = (1, 86_400)
SUITES = ("pairing", "hash-to-g1", "mpin-two-pass", "mpin-one-pass", "mpin-full", "encoding", "access-number",
          "pin-mapping")


def tail(path, lines=3):
    try:
        with open(path, encoding="utf-8", errors="replace") as log:
            return " / ".join(log.read().strip().splitlines()[-lines:])
    except OSError:
        return ""


def count_cassettes(path):
    if os.path.isdir(path):
        return len([name for name in os.listdir(path) if name.endswith(".json")])
    return 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("binary", nargs="?", default=".build/release/mpin-workbench",
                        help="path to mpin-workbench (default: .build/release/mpin-workbench)")
    parser.add_argument("--counts", type=integer_list("--counts", *COUNT_RANGE), default=[1000, 10000, 100000],
                        help=f"`vectors generate --count` values, comma-separated, each {COUNT_RANGE[0]} to "
                             f"{COUNT_RANGE[1]} (default 1000,10000,100000; empty list: skip with --counts '')")
    parser.add_argument("--suite", choices=SUITES, default="mpin-two-pass", help="the suite to generate (default mpin-two-pass)")
    parser.add_argument("--cassettes", default="Recordings", help="cassette file or directory to replay (default Recordings)")
    parser.add_argument("--replays", type=integer_list("--replays", *REPLAYS_RANGE), default=[1, 10, 100],
                        help=f"`replay --bench` values, comma-separated, each {REPLAYS_RANGE[0]} to {REPLAYS_RANGE[1]} "
                             "(default 1,10,100)")
    parser.add_argument("--timeout", type=bounded_integer("--timeout", *TIMEOUT_RANGE), default=3600,
                        help=f"seconds allowed to each command, {TIMEOUT_RANGE[0]} to {TIMEOUT_RANGE[1]} (default 3600)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a markdown table")
    arguments = parser.parse_args()

    binary = arguments.binary
    if not os.path.isfile(binary) or not os.access(binary, os.X_OK):
        print(f"error: {binary} not found: build it with `make build` or pass its path", file=sys.stderr)
        return 2
    if arguments.replays and not os.path.exists(arguments.cassettes):
        print(f"error: --cassettes {arguments.cassettes}: no such file or directory", file=sys.stderr)
        return 2

    context = {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "cpu": cpu_model(),
        "logicalCPUs": os.cpu_count(),
        "loadAverageStart": load_average(),
        "binary": binary,
    }
    rows = []
    failures = 0
    scratch = tempfile.mkdtemp(prefix="mpin-measure-memory-")
    try:
        log = os.path.join(scratch, "log.txt")
        for count in arguments.counts:
            out = os.path.join(scratch, f"{arguments.suite}-{count}.json")
            command = [binary, "vectors", "generate", "--suite", arguments.suite, "--count", str(count),
                       "--seed", "measure-memory", "--out", out]
            status, peak, seconds = measure(command, arguments.timeout, log)
            size = os.path.getsize(out) if status == 0 and os.path.exists(out) else None
            note = f"file {size / 2**20:.1f} MiB" if size is not None and size >= 2**20 else \
                f"file {size / 1024:.1f} KiB" if size is not None else f"FAILED: {tail(log)}"
            failures += status != 0
            rows.append({"command": f"vectors generate --suite {arguments.suite} --count {count}",
                         "status": status, "peakRSSKiB": peak, "seconds": seconds, "fileBytes": size, "note": note})
            if os.path.exists(out):
                os.remove(out)
            print(f"measured: {rows[-1]['command']}", file=sys.stderr)
        cassettes = count_cassettes(arguments.cassettes)
        for replays in arguments.replays:
            command = [binary, "replay", arguments.cassettes, "--bench", str(replays)]
            status, peak, seconds = measure(command, arguments.timeout, log)
            output = tail(log, 2)
            if status == 0:
                note = output.replace("bench: ", "")
            else:
                note = f"FAILED (status {status}): {output}"
                failures += 1
            rows.append({"command": f"replay {arguments.cassettes} --bench {replays}", "status": status,
                         "peakRSSKiB": peak, "seconds": seconds, "cassettes": cassettes,
                         "replays": cassettes * (replays + 1), "note": note})
            print(f"measured: {rows[-1]['command']}", file=sys.stderr)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    context["loadAverageEnd"] = load_average()

    if arguments.json:
        print(json.dumps({"context": context, "results": rows}, indent=2, ensure_ascii=False))
    else:
        loads = lambda values: "n/a" if not values else " / ".join(f"{value:.2f}" for value in values)
        print(f"Peak RSS (`ru_maxrss` of each command's process); {context['date']}; {context['cpu']}; "
              f"{context['logicalCPUs']} logical CPUs; load average (1, 5, 15 min) {loads(context['loadAverageStart'])} "
              f"before, {loads(context['loadAverageEnd'])} after")
        print()
        print("| command | peak RSS | wall time | |")
        print("|---|---:|---:|---|")
        for row in rows:
            print(f"| `{row['command']}` | {row['peakRSSKiB'] / 1024:.1f} MiB | {row['seconds']:.1f} s | {row['note']} |")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
