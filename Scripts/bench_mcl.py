#!/usr/bin/env python3
"""Time the BN254 pairing of mcl (PyPI `mclbn256`) and `mpin-workbench bench` in one run.

Usage:
    python3 Scripts/bench_mcl.py [PATH_TO_MPIN_WORKBENCH] [--runs N]

PATH_TO_MPIN_WORKBENCH defaults to .build/release/mpin-workbench (build it with `make build`).
Prints a markdown table with the pairing medians, the ratio ours/mcl, the date and the CPU model,
then the medians of every operation of `mpin-workbench bench` for both curves. mcl only implements
BN254 (Nogami); ours is timed on BN254 (same curve as mcl) and on BN254CX (Milagro MFA's curve).

mcl is reached through `mclbn256` (`pip install mclbn256`); without it the script still times ours
and says that mcl is missing.
"""

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time

# BN254 (Nogami) generators, as AMCL and mcl both use them (CRYPTO.md §2.1).
BN254_P = 0x2523648240000001BA344D80000000086121000000000013A700000000000013
BN254_G1 = (BN254_P - 1, 1)
BN254_G2 = (
    0x061A10BB519EB62FEB8D8C7E8C61EDB6A4648BBB4898BF0D91EE4224C803FB2B,
    0x0516AAF9BA737833310AA78C5982AA5B1F4D746BAE3784B70D8C34C1E7D54CF3,
    0x021897A06BAF93439A90E096698C822329BD0AE6BDBE09BD19F0E07891CD2B9A,
    0x0EBB2B0E7C8B15268F6D4456F5F38D37B09006FFD739C9578A2D1AEC6B3ACE9B,
)

# AMCL C's pairing as measured once on an AMD EPYC (Zen 4) machine of this kind (CRYPTO.md §7):
# quoted for comparison, not measured by this script (the CPU of a run may differ).
AMCL_C_PAIRING_MS = {"bn254cx": 1.64, "bn254": 1.47}


def cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def time_mcl_pairing(runs):
    """Median nanoseconds of one mcl pairing e(P, Q), or (None, reason) when mcl is missing."""
    try:
        from mclbn256 import G1, G2  # pylint: disable=import-outside-toplevel
    except ImportError as error:
        return None, f"mclbn256 is not installed ({error}); install it with `pip install mclbn256`"
    p = G1().fromstr(b"1 %x %x" % BN254_G1, 16)
    q = G2().fromstr(b"1 %x %x %x %x" % BN254_G2, 16)
    if not (p.valid() and q.valid()):
        return None, "mclbn256 rejected the BN254 generators"
    warm_up = max(10, runs // 10)
    for _ in range(warm_up):
        _ = p @ q
    samples = []
    for _ in range(runs):
        start = time.perf_counter_ns()
        _ = p @ q
        samples.append(time.perf_counter_ns() - start)
    return statistics.median(samples), None


def run_workbench(binary, curve, runs):
    """The parsed `bench --json` object, or (None, reason)."""
    if not os.path.isfile(binary) or not os.access(binary, os.X_OK):
        return None, f"{binary} not found: build it with `make build` or pass its path"
    command = [binary, "bench", "--json", "--curve", curve, "--runs", str(runs)]
    try:
        completed = subprocess.run(command, check=True, capture_output=True, text=True)
    except subprocess.CalledProcessError as error:
        return None, f"`{' '.join(command)}` failed with status {error.returncode}: {error.stderr.strip()}"
    try:
        return json.loads(completed.stdout), None
    except json.JSONDecodeError as error:
        return None, f"`{' '.join(command)}` printed no JSON object ({error})"


def median_of(report, name):
    for result in report.get("results", []):
        if result.get("name") == name:
            return float(result["medianNanoseconds"])
    return None


def milliseconds(nanoseconds):
    return "n/a" if nanoseconds is None else f"{nanoseconds / 1e6:.3f} ms"


def human(nanoseconds):
    if nanoseconds < 1e3:
        return f"{nanoseconds:.1f} ns"
    if nanoseconds < 1e6:
        return f"{nanoseconds / 1e3:.2f} µs"
    return f"{nanoseconds / 1e6:.3f} ms"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("binary", nargs="?", default=".build/release/mpin-workbench",
                        help="path to mpin-workbench (default: .build/release/mpin-workbench)")
    parser.add_argument("--runs", type=int, default=200, help="timed runs per measurement (at least 200 advised)")
    arguments = parser.parse_args()
    runs = max(1, arguments.runs)

    notes = []
    mcl_ns, why = time_mcl_pairing(runs)
    if why:
        notes.append(why)
    reports = {}
    for curve in ("bn254", "bn254cx"):
        report, why = run_workbench(arguments.binary, curve, runs)
        if why:
            notes.append(why)
        else:
            reports[curve] = report

    print(f"Pairing, median of {runs} runs; {datetime.date.today().isoformat()}; {cpu_model()}; "
          f"{os.cpu_count()} logical CPUs; Python {platform.python_version()}")
    print()
    print("| implementation | curve | pairing (median) | ours / mcl |")
    print("|---|---|---|---|")
    print(f"| mcl (`mclbn256`) | BN254 | {milliseconds(mcl_ns)} | |")
    for curve, label in (("bn254", "BN254"), ("bn254cx", "BN254CX")):
        ours = median_of(reports[curve], "pairing") if curve in reports else None
        ratio = f"{ours / mcl_ns:.2f}" if ours is not None and mcl_ns else "n/a"
        print(f"| mpin-workbench | {label} | {milliseconds(ours)} | {ratio} |")
    for curve, label in (("bn254", "BN254"), ("bn254cx", "BN254CX")):
        print(f"| AMCL C (quoted: CRYPTO.md §7, AMD EPYC Zen 4; not this run) | {label} | "
              f"{AMCL_C_PAIRING_MS[curve]:.2f} ms | |")

    if reports:
        names = [result["name"] for result in next(iter(reports.values()))["results"]]
        print()
        print("| operation | " + " | ".join(label for curve, label in (("bn254", "BN254"), ("bn254cx", "BN254CX"))
                                           if curve in reports) + " |")
        print("|---|" + "---|" * len(reports))
        for name in names:
            cells = [human(median_of(reports[curve], name)) for curve in ("bn254", "bn254cx")
                     if curve in reports and median_of(reports[curve], name) is not None]
            print(f"| {name} | " + " | ".join(cells) + " |")

    for note in notes:
        print(f"\nnote: {note}", file=sys.stderr)
    return 0 if reports else 1


if __name__ == "__main__":
    sys.exit(main())
