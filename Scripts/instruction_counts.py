#!/usr/bin/env python3
"""The crypto core's instruction counts under callgrind, beside `make bench`'s times (docs/benchmarks.md,
"Instruction counts").

Runs the built mpin-instruction-count under `valgrind --tool=callgrind` (it builds nothing), once
per field arithmetic the processor can run (MPIN_FIELD_KERNEL=portable, and =kernel when the CPU
has BMI2 and ADX), reads the dumps' totals from a temporary directory (removed afterwards),
divides each by the number of calls and compares it with the committed baseline
Scripts/instruction_counts.json. Exit 1 when an operation counts more than --tolerance percent
(5) above its baseline, or is missing from the run; 2 on a usage or input error.

  Scripts/instruction_counts.py [BINARY]          run and compare (BINARY: .build/release/mpin-instruction-count)
  Scripts/instruction_counts.py --update          run and rewrite the baseline, with its provenance
  Scripts/instruction_counts.py --json            the comparison as JSON
  Scripts/instruction_counts.py --from-dumps DIR  compare callgrind dump files already in DIR (no valgrind)
"""

import argparse
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile

from bench_common import bounded_integer, cpu_model

DEFAULT_BINARY = ".build/release/mpin-instruction-count"
DEFAULT_BASELINE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "instruction_counts.json")
CURVES = ("bn254cx", "bn254")
OPERATIONS = ("pairing", "miller_loop", "final_exponentiation", "gt_pow", "g1_mul", "g2_mul")
KERNELS = ("portable", "kernel")
# Every count read is range-checked: an operation costs more than a thousand instructions and
# less than ten billion; a run makes 1 to 100 calls; a dump file is read up to 16 MiB.
MIN_COUNT, MAX_COUNT = 1_000, 10_000_000_000
MAX_CALLS = 100
MAX_DUMP_BYTES = 16 << 20
MAX_BASELINE_BYTES = 1 << 20
NAME = re.compile(r"^(bn254cx|bn254)/([a-z0-9_]+)/(portable|kernel)$")


class InputError(Exception):
    """A dump, baseline or run that cannot be read: exit 2 with its message."""


def cpu_has_kernel():
    """True when /proc/cpuinfo's flags line names bmi2 and adx (the kernel can run here)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("flags"):
                    flags = line.split(":", 1)[1].split()
                    return "bmi2" in flags and "adx" in flags
    except OSError:
        pass
    return False


def parse_dump(path):
    """(name, total instructions) of one callgrind dump: the name from its client-request trigger
    line, the total from its `totals:` line (else `summary:`). None for a dump with no name (the
    final dump at exit)."""
    if os.path.getsize(path) > MAX_DUMP_BYTES:
        raise InputError(f"{path}: larger than {MAX_DUMP_BYTES} bytes")
    name, totals, summary = None, None, None
    with open(path, encoding="utf-8", errors="replace") as dump:
        for line in dump:
            if line.startswith("desc: Trigger: Client Request: "):
                name = line.split(": ", 3)[3].strip()
            elif line.startswith("totals:"):
                totals = line.split(":", 1)[1].split()
            elif line.startswith("summary:"):
                summary = line.split(":", 1)[1].split()
    if name is None:
        return None
    if not NAME.match(name):
        raise InputError(f"{path}: unexpected dump name {name!r}")
    fields = totals or summary
    if not fields:
        raise InputError(f"{path}: no totals or summary line")
    try:
        count = int(fields[0], 10)
    except ValueError:
        raise InputError(f"{path}: total {fields[0]!r} is not a whole number") from None
    if not 0 <= count <= MAX_COUNT * MAX_CALLS:
        raise InputError(f"{path}: total {count} out of range")
    return name, count


def read_dumps(directory, calls):
    """{name: instructions per call} from every dump file in directory."""
    counts = {}
    for entry in sorted(os.listdir(directory)):
        path = os.path.join(directory, entry)
        if not os.path.isfile(path):
            continue
        parsed = parse_dump(path)
        if parsed is None:
            continue
        name, total = parsed
        if name in counts:
            raise InputError(f"{directory}: {name} dumped twice")
        per_call = round(total / calls)
        if not MIN_COUNT <= per_call <= MAX_COUNT:
            raise InputError(f"{path}: {per_call} instructions per call, outside {MIN_COUNT}..{MAX_COUNT}")
        counts[name] = per_call
    return counts


def read_calls(directory):
    """The calls per dump, from DIR/calls (written by a run; a test's fake dumps carry one too)."""
    path = os.path.join(directory, "calls")
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read(64).strip()
    except OSError:
        raise InputError(f"{path}: missing (the number of calls per dump)") from None
    try:
        calls = int(text, 10)
    except ValueError:
        calls = 0
    if not 1 <= calls <= MAX_CALLS:
        raise InputError(f"{path}: calls must be a whole number from 1 to {MAX_CALLS}, got {text!r}")
    return calls


def run_valgrind(binary, kernel, calls, directory, timeout, valgrind):
    """Runs the binary under callgrind with MPIN_FIELD_KERNEL=kernel, its dumps into directory."""
    env = dict(os.environ, MPIN_FIELD_KERNEL=kernel)
    command = [
        valgrind, "--tool=callgrind", "--collect-atstart=yes", "--dump-instr=no", "--dump-line=no",
        f"--callgrind-out-file={os.path.join(directory, 'cg.%p')}", binary, "--calls", str(calls),
    ]
    try:
        result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise InputError(f"{binary} under callgrind ({kernel}): no result within {timeout} s") from None
    except OSError as error:
        raise InputError(f"{valgrind}: {error}") from None
    if result.returncode != 0:
        raise InputError(f"{binary} under callgrind ({kernel}) exited {result.returncode}: {result.stderr.strip()[-800:]}")
    first = result.stdout.splitlines()[:1]
    if not first or not first[0].startswith("calls "):
        raise InputError(f"{binary}: unexpected output {result.stdout[:200]!r}")
    ran = first[0].split()
    if len(ran) < 4 or ran[3] != kernel:
        raise InputError(f"{binary}: asked for the {kernel} field arithmetic, ran {' '.join(ran[2:]) or 'unknown'}")


def measure(binary, calls, timeout, valgrind):
    """{name: instructions per call} for every field arithmetic the CPU can run."""
    if not os.access(binary, os.X_OK):
        raise InputError(f"{binary}: not an executable (build it first: `make bench` does)")
    counts = {}
    for kernel in kernels_here():
        with tempfile.TemporaryDirectory(prefix="mpin-instruction-count.") as directory:
            run_valgrind(binary, kernel, calls, directory, timeout, valgrind)
            counts.update(read_dumps(directory, calls))
    return counts


def kernels_here():
    return KERNELS if cpu_has_kernel() else KERNELS[:1]


def valgrind_version(valgrind):
    try:
        return subprocess.run([valgrind, "--version"], capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"


def git_commit():
    try:
        result = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=30)
        return result.stdout.strip() or "unknown"
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"


def read_baseline(path):
    """{name: instructions per call} of the baseline file, every entry checked."""
    try:
        if os.path.getsize(path) > MAX_BASELINE_BYTES:
            raise InputError(f"{path}: larger than {MAX_BASELINE_BYTES} bytes")
        with open(path, encoding="utf-8") as f:
            document = json.load(f)
    except OSError as error:
        raise InputError(f"{path}: cannot read the baseline ({error.strerror}); `--update` writes one") from None
    except (ValueError, UnicodeDecodeError) as error:
        raise InputError(f"{path}: malformed baseline, not JSON ({error})") from None
    if not isinstance(document, dict) or not isinstance(document.get("counts"), dict):
        raise InputError(f"{path}: malformed baseline, expected an object with a \"counts\" object")
    counts = {}
    for name, value in document["counts"].items():
        if not NAME.match(name):
            raise InputError(f"{path}: malformed baseline, unexpected operation {name!r}")
        if type(value) is not int or not MIN_COUNT <= value <= MAX_COUNT:
            raise InputError(f"{path}: malformed baseline, {name}: {value!r} is not a count from {MIN_COUNT} to {MAX_COUNT}")
        counts[name] = value
    if not counts:
        raise InputError(f"{path}: malformed baseline, no counts")
    return counts


def compare(measured, baseline, tolerance):
    """Rows of (name, measured or None, baseline or None, change % or None, verdict)."""
    rows = []
    for name in sorted(set(measured) | set(baseline), key=sort_key):
        now, then = measured.get(name), baseline.get(name)
        if now is None:
            rows.append((name, None, then, None, "missing"))
        elif then is None:
            rows.append((name, now, None, None, "new"))
        else:
            change = (now - then) * 100.0 / then
            rows.append((name, now, then, change, "worse" if change > tolerance else "ok"))
    return rows


def sort_key(name):
    curve, operation, kernel = name.split("/")
    return (KERNELS.index(kernel), CURVES.index(curve), OPERATIONS.index(operation) if operation in OPERATIONS else 99)


def print_table(rows, tolerance):
    print(f"{'operation':<22} {'curve':<8} {'kernel':<9} {'instructions':>14} {'baseline':>14} {'change':>8}")
    for name, now, then, change, verdict in rows:
        curve, operation, kernel = name.split("/")
        now_text = f"{now:,}" if now is not None else "missing"
        then_text = f"{then:,}" if then is not None else "none"
        change_text = f"{change:+.2f}%" if change is not None else ""
        mark = {"worse": f"  more than {tolerance:g}% worse", "missing": "  missing from the run", "new": "  not in the baseline"}
        print(f"{operation:<22} {curve:<8} {kernel:<9} {now_text:>14} {then_text:>14} {change_text:>8}{mark.get(verdict, '')}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary", nargs="?", default=DEFAULT_BINARY)
    parser.add_argument("--baseline", default=DEFAULT_BASELINE)
    parser.add_argument("--calls", type=bounded_integer("--calls", 1, MAX_CALLS), default=3)
    parser.add_argument("--timeout", type=bounded_integer("--timeout", 10, 3600), default=900,
                        help="seconds for each valgrind run (default 900)")
    parser.add_argument("--tolerance", type=bounded_integer("--tolerance", 0, 100), default=5,
                        help="percent above the baseline that fails (default 5)")
    parser.add_argument("--valgrind", default="valgrind")
    parser.add_argument("--from-dumps", metavar="DIR", help="compare the dumps in DIR (with DIR/calls) instead of running")
    parser.add_argument("--update", action="store_true", help="rewrite the baseline with this run")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    try:
        if args.from_dumps:
            measured = read_dumps(args.from_dumps, read_calls(args.from_dumps))
        else:
            measured = measure(args.binary, args.calls, args.timeout, args.valgrind)
        if not measured:
            raise InputError("no named dumps were read")
        if args.update:
            document = {
                "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                "valgrind": valgrind_version(args.valgrind),
                "cpu": cpu_model(),
                "commit": git_commit(),
                "calls": args.calls,
                "counts": {name: measured[name] for name in sorted(measured, key=sort_key)},
            }
            with open(args.baseline + ".tmp", "w", encoding="utf-8") as f:
                json.dump(document, f, indent=2)
                f.write("\n")
            os.replace(args.baseline + ".tmp", args.baseline)
            print(f"instruction counts: {len(measured)} written to {args.baseline}")
            return 0
        baseline = read_baseline(args.baseline)
    except InputError as error:
        print(f"instruction counts: {error}", file=sys.stderr)
        return 2
    # An operation of the baseline for the portable path is always expected; the kernel's only
    # where it can run (a run on a CPU without BMI2/ADX is not missing them).
    if not args.from_dumps and not cpu_has_kernel():
        baseline = {name: count for name, count in baseline.items() if not name.endswith("/kernel")}
    rows = compare(measured, baseline, args.tolerance)
    failures = [row for row in rows if row[4] in ("worse", "missing")]
    if args.json:
        print(json.dumps([{"operation": n.split("/")[1], "curve": n.split("/")[0], "kernel": n.split("/")[2],
                           "instructions": now, "baseline": then,
                           "change_percent": None if change is None else round(change, 3), "verdict": verdict}
                          for n, now, then, change, verdict in rows], indent=2))
    else:
        print_table(rows, args.tolerance)
    for name, _, _, change, verdict in failures:
        what = f"{change:+.2f}% against its baseline" if verdict == "worse" else "missing from the run"
        print(f"instruction counts: {name} {what}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
