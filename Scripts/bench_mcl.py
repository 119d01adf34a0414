#!/usr/bin/env python3
"""Time mcl (PyPI `mclbn256`) and `mpin-workbench bench` in one run and print every ratio ours/mcl.

Usage:
    python3 Scripts/bench_mcl.py [PATH_TO_MPIN_WORKBENCH] [--runs N] [--rounds R] [--json]

PATH_TO_MPIN_WORKBENCH defaults to .build/release/mpin-workbench (build it with `make build`).

Operations compared, each against its goal (our time / mcl's time), on both curves:
    pairing  e(P, Q) (mcl: `mclBn_pairing`, no precomputation, as ours)            at most 1.0
    gt_pow   GT ** Fr (mcl: `e ** r`, e = e(P, Q))                                 at most 1.0
    g1_mul   G1 * Fr, ours constant time (mcl: `mclBnG1_mulCT`, r = Fr().randomize(),
             P the BN254 generator)                                                at most 0.75
    g2_mul   G2 * Fr, ours constant time (mcl: `mclBnG2_mulCT`, Q the G2 generator) at most 0.75
Ours is `mpin-workbench bench --json` on BN254CX (Milagro MFA's curve, the target's) and on BN254
(the curve mcl implements). mcl's scalars are random, a new one for every call from a pool of 16
drawn per round; ours are fixed, derived from the generators (`bench`).

The machine is shared and noisy, so the measurements run in `--rounds` rounds (default 3), mcl and
ours interleaved (mcl first in odd rounds, ours first in even ones), each round taking medians of
`--runs` calls; the figure reported is the median of the rounds' medians, with the spread of the
rounds' ratios.

mcl's Python call overhead: mcl is called through its ctypes wrapper, which builds a Python result
object and makes one C call. The overhead is measured per group with the same wrapper around a
trivial C function (`neg`: a point or GT negation) and the same timer. mcl's figures are its raw
medians, overhead included; the ratio against mcl's median less the overhead (the stricter one for
us) is printed beside it, and decides whether the goal is met.

Also printed, without a goal: mcl's pairing with precomputed G2 line coefficients (what
`mclbn256`'s `P @ Q` does by default: it caches the lines on Q), mcl's variable-time scalar
multiplications `P * r` and `Q * r` (ours are constant time in the scalar), then the medians of
every operation of `mpin-workbench bench` for both curves. mcl's `mulCT` leaves its result in
Jacobian coordinates (its `normalize` changes the bytes after it), and so do ours (`bench`'s
`g1_mul` and `g2_mul` read the Jacobian X): the multiplications compare equal work.

Without `mclbn256` (`pip install mclbn256`) the script still times ours and says that mcl is
missing. `--json` prints one JSON object instead of the markdown tables.
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

from bench_common import bounded_integer, cpu_model, load_average

# BN254 (Nogami) generators, as AMCL and mcl both use them (docs/crypto.md §2.1).
BN254_P = 0x2523648240000001BA344D80000000086121000000000013A700000000000013
BN254_G1 = (BN254_P - 1, 1)
BN254_G2 = (
    0x061A10BB519EB62FEB8D8C7E8C61EDB6A4648BBB4898BF0D91EE4224C803FB2B,
    0x0516AAF9BA737833310AA78C5982AA5B1F4D746BAE3784B70D8C34C1E7D54CF3,
    0x021897A06BAF93439A90E096698C822329BD0AE6BDBE09BD19F0E07891CD2B9A,
    0x0EBB2B0E7C8B15268F6D4456F5F38D37B09006FFD739C9578A2D1AEC6B3ACE9B,
)

# AMCL C's pairing as measured once on an AMD EPYC (Zen 4) machine of this kind (docs/crypto.md §7):
# quoted for comparison, not measured by this script (the CPU of a run may differ).
AMCL_C_PAIRING_MS = {"bn254cx": 1.64, "bn254": 1.47}

# The goals, as ratios ours / mcl on both curves (issue 38): the pairing and the GT power at or below
# mcl's time, the constant-time scalar multiplications at or below 0.75 of mcl's constant-time ones.
# (our `bench` name, label, mcl operation, overhead probe, goal).
COMPARED = [
    ("pairing", "pairing e(P, Q)", "pairing", "gt_neg", 1.0),
    ("gt_pow", "GT ** Fr", "gt_pow", "gt_neg", 1.0),
    ("g1_mul", "G1 * Fr, ours constant time / mcl's `mclBnG1_mulCT`", "g1_mul_ct", "g1_neg", 0.75),
    ("g2_mul", "G2 * Fr, ours constant time / mcl's `mclBnG2_mulCT`", "g2_mul_ct", "g2_neg", 0.75),
]
# Measured for information, without a goal: (our `bench` name, label, mcl operation, overhead probe, None).
ALSO = [
    ("pairing", "pairing, mcl with precomputed G2 lines (`P @ Q`)", "pairing_precomputed", "gt_neg", None),
    ("g1_mul", "G1 * Fr, mcl variable time (`P * r`)", "g1_mul", "g1_neg", None),
    ("g2_mul", "G2 * Fr, mcl variable time (`Q * r`)", "g2_mul", "g2_neg", None),
]
CURVES = (("bn254cx", "BN254CX"), ("bn254", "BN254"))
RUNS_RANGE = (1, 100_000)
ROUNDS_RANGE = (1, 100)
SCALAR_POOL = 16


class Mcl:
    """mcl's operations on the BN254 generators, through `mclbn256`."""

    def __init__(self):
        import mclbn256  # pylint: disable=import-outside-toplevel
        from mclbn256 import G1, G2, Fr  # pylint: disable=import-outside-toplevel
        self.module = mclbn256.mclbn256
        self.lib = self.module.lib
        self.version = getattr(mclbn256, "__version__", None) or package_version("mclbn256")
        self.G1, self.G2, self.Fr = G1, G2, Fr
        self.p = G1().fromstr(b"1 %x %x" % BN254_G1, 16)
        self.q = G2().fromstr(b"1 %x %x %x %x" % BN254_G2, 16)
        if not (self.p.valid() and self.q.valid()):
            raise ValueError("mclbn256 rejected the BN254 generators")
        self.e = self.pairing(self.p, self.q)
        self.scalars = []

    def pairing(self, p, q):
        """e(P, Q) without precomputation (`mclBn_pairing`), whatever `mclbn256`'s memo setting."""
        self.module.disable_memoization()
        try:
            return p @ q
        finally:
            self.module.reenable_memoization()

    def draw_scalars(self):
        self.scalars = []
        for _ in range(SCALAR_POOL):
            r = self.Fr()
            r.randomize()
            self.scalars.append(r)

    def operations(self):
        """name -> (callable taking a scalar index, setup, teardown)."""
        p, q, e, scalars, lib, G1, G2 = self.p, self.q, self.e, self.scalars, self.lib, self.G1, self.G2
        module = self.module

        def mul_ct_g1(i):
            result = G1()
            lib.mclBnG1_mulCT(result.d, p.d, scalars[i].s)
            return result

        def mul_ct_g2(i):
            result = G2()
            lib.mclBnG2_mulCT(result.d2, q.d2, scalars[i].s)
            return result

        plain = (module.disable_memoization, module.reenable_memoization)
        memo = (module.reenable_memoization, module.reenable_memoization)
        none = (lambda: None, lambda: None)
        operations = {
            "g1_mul": (lambda i: p * scalars[i], *none),
            "g2_mul": (lambda i: q * scalars[i], *none),
            "gt_pow": (lambda i: e ** scalars[i], *none),
            "pairing": (lambda i: p @ q, *plain),
            "pairing_precomputed": (lambda i: p @ q, *memo),
            "g1_neg": (lambda i: p.neg(), *none),
            "g2_neg": (lambda i: q.neg(), *none),
            "gt_neg": (lambda i: e.neg(), *none),
        }
        for name, symbols, body in (
            ("g1_mul_ct", ("mclBnG1_mulCT",), mul_ct_g1),
            ("g2_mul_ct", ("mclBnG2_mulCT",), mul_ct_g2),
        ):
            if all(hasattr(lib, symbol) for symbol in symbols):
                operations[name] = (body, *none)
        return operations

    def time_all(self, runs):
        """name -> median nanoseconds of one call, each call timed on its own (perf_counter_ns)."""
        self.draw_scalars()
        medians = {}
        for name, (operation, setup, teardown) in self.operations().items():
            setup()
            try:
                for index in range(max(10, runs // 10)):
                    operation(index % SCALAR_POOL)
                samples = []
                for index in range(runs):
                    start = time.perf_counter_ns()
                    operation(index % SCALAR_POOL)
                    samples.append(time.perf_counter_ns() - start)
            finally:
                teardown()
            medians[name] = statistics.median(samples)
        return medians


def package_version(name):
    try:
        from importlib.metadata import version  # pylint: disable=import-outside-toplevel
        return version(name)
    except Exception:  # pylint: disable=broad-except
        return None


def load_mcl():
    """(Mcl, None) or (None, reason)."""
    try:
        return Mcl(), None
    except ImportError as error:
        return None, f"mclbn256 is not installed ({error}); install it with `pip install mclbn256`"
    except (OSError, ValueError, AttributeError) as error:
        return None, f"mclbn256 could not be used: {error}"


def parse_bench(text, command):
    """name -> median nanoseconds from `bench --json` output, every field checked; raises ValueError."""
    try:
        report = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"`{command}` printed no JSON object ({error})") from error
    if not isinstance(report, dict) or not isinstance(report.get("results"), list):
        raise ValueError(f"`{command}`: the output has no \"results\" array")
    medians = {}
    for index, result in enumerate(report["results"]):
        where = f"`{command}`: results[{index}]"
        if not isinstance(result, dict) or not isinstance(result.get("name"), str):
            raise ValueError(f"{where}.name: missing or not a string")
        median = result.get("medianNanoseconds")
        if isinstance(median, bool) or not isinstance(median, (int, float)) or not 0 < median < 1e12:
            raise ValueError(f"{where}.medianNanoseconds: must be a number above 0 and below 10^12 ns, got {median!r}")
        medians[result["name"]] = float(median)
    return medians


def run_workbench(binary, curve, runs):
    """(name -> median nanoseconds, None) from `bench --json`, or (None, reason)."""
    if not os.path.isfile(binary) or not os.access(binary, os.X_OK):
        return None, f"{binary} not found: build it with `make build` or pass its path"
    command = [binary, "bench", "--json", "--curve", curve, "--runs", str(runs)]
    shown = " ".join(command)
    try:
        completed = subprocess.run(command, check=True, capture_output=True, text=True, timeout=3600)
    except subprocess.CalledProcessError as error:
        return None, f"`{shown}` failed with status {error.returncode}: {error.stderr.strip()}"
    except subprocess.TimeoutExpired:
        return None, f"`{shown}` did not finish within an hour"
    try:
        return parse_bench(completed.stdout, shown), None
    except ValueError as error:
        return None, str(error)


def median_or_none(values):
    values = [value for value in values if value is not None]
    return statistics.median(values) if values else None


def summarize(rounds, mcl_available):
    """The comparison from the rounds: {compared: [...], also: [...], ours: {curve: {name: ns}}, mcl: {name: ns}}."""
    mcl = {}
    if mcl_available:
        names = set().union(*(round_["mcl"].keys() for round_ in rounds))
        mcl = {name: median_or_none([round_["mcl"].get(name) for round_ in rounds]) for name in sorted(names)}
    ours = {}
    for curve, _ in CURVES:
        reports = [round_["ours"].get(curve) for round_ in rounds if round_["ours"].get(curve)]
        if reports:
            names = list(reports[0].keys())
            ours[curve] = {name: median_or_none([report.get(name) for report in reports]) for name in names}

    def rows(table):
        out = []
        for our_name, label, mcl_name, probe, target in table:
            raw = mcl.get(mcl_name)
            overhead = mcl.get(probe)
            net = raw - overhead if raw is not None and overhead is not None and raw > overhead else None
            row = {"operation": our_name, "label": label, "mclOperation": mcl_name,
                   "mclMedianNanoseconds": raw, "mclCallOverheadNanoseconds": overhead,
                   "mclLessOverheadNanoseconds": net, "target": target, "curves": {}}
            for curve, _ in CURVES:
                ns = ours.get(curve, {}).get(our_name)
                per_round = []
                for round_ in rounds:
                    ours_round = (round_["ours"].get(curve) or {}).get(our_name)
                    mcl_round = round_["mcl"].get(mcl_name) if mcl_available else None
                    if ours_round is not None and mcl_round:
                        per_round.append(ours_round / mcl_round)
                ratio = ns / raw if ns is not None and raw else None
                ratio_net = ns / net if ns is not None and net else None
                decisive = ratio_net if ratio_net is not None else ratio
                row["curves"][curve] = {
                    "oursNanoseconds": ns,
                    "ratio": ratio,
                    "ratioLessOverhead": ratio_net,
                    "ratioRange": [min(per_round), max(per_round)] if per_round else None,
                    "met": (decisive <= target) if target is not None and decisive is not None else None,
                }
            out.append(row)
        return out

    return {"compared": rows(COMPARED), "also": rows(ALSO), "ours": ours, "mcl": mcl}


def human(nanoseconds):
    if nanoseconds is None:
        return "n/a"
    if nanoseconds < 1e3:
        return f"{nanoseconds:.0f} ns"
    if nanoseconds < 1e6:
        return f"{nanoseconds / 1e3:.2f} µs"
    return f"{nanoseconds / 1e6:.3f} ms"


def loads(values):
    return "n/a" if not values else " / ".join(f"{value:.2f}" for value in values)


def times(ratio):
    return "n/a" if ratio is None else f"{ratio:.2f}"


def verdict(met):
    return "n/a" if met is None else ("yes" if met else "no")


def print_markdown(summary, context):
    print(f"ours / mcl, median of {context['rounds']} rounds of {context['runs']} runs each (mcl and ours "
          f"interleaved); {context['date']}; {context['cpu']}; {context['logicalCPUs']} logical CPUs; "
          f"load average (1, 5, 15 min) {loads(context['loadAverageStart'])} before, "
          f"{loads(context['loadAverageEnd'])} after; "
          f"Python {context['python']}; mclbn256 {context['mclVersion'] or 'missing'}")
    print()
    print("Goals: each ratio at most its goal on both curves (ours on BN254CX, Milagro MFA's curve, and on BN254, "
          "mcl's own curve). mcl's medians are raw (its Python call overhead included); 'met' is decided on the "
          "ratio to mcl less that overhead, the stricter one.")
    print()
    print("| operation | mcl BN254 (raw median) | mcl call overhead | ours BN254CX | ours BN254 "
          "| BN254CX / mcl (raw; less overhead) | BN254 / mcl (raw; less overhead) | rounds' BN254CX ratios "
          f"| goal | met (BN254CX, BN254) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for row in summary["compared"] + summary["also"]:
        cx, bn = row["curves"]["bn254cx"], row["curves"]["bn254"]
        spread = "n/a" if cx["ratioRange"] is None else f"{cx['ratioRange'][0]:.2f}–{cx['ratioRange'][1]:.2f}"
        target = "—" if row["target"] is None else f"≤ {row['target']}"
        print(f"| {row['label']} | {human(row['mclMedianNanoseconds'])} | {human(row['mclCallOverheadNanoseconds'])} "
              f"| {human(cx['oursNanoseconds'])} | {human(bn['oursNanoseconds'])} "
              f"| {times(cx['ratio'])}; {times(cx['ratioLessOverhead'])} | {times(bn['ratio'])}; {times(bn['ratioLessOverhead'])} "
              f"| {spread} | {target} "
              f"| {verdict(cx['met']) + ', ' + verdict(bn['met']) if row['target'] is not None else '—'} |")
    print()
    for curve, label in CURVES:
        print(f"AMCL C's pairing on {label}, quoted from docs/crypto.md §7 (AMD EPYC Zen 4; not this run): "
              f"{AMCL_C_PAIRING_MS[curve]:.2f} ms")
    ours = summary["ours"]
    if ours:
        print()
        shown = [(curve, label) for curve, label in CURVES if curve in ours]
        print("| operation (`mpin-workbench bench`) | " + " | ".join(label for _, label in shown) + " |")
        print("|---|" + "---|" * len(shown))
        for name in next(iter(ours.values())).keys():
            print(f"| {name} | " + " | ".join(human(ours[curve].get(name)) for curve, _ in shown) + " |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("binary", nargs="?", default=".build/release/mpin-workbench",
                        help="path to mpin-workbench (default: .build/release/mpin-workbench)")
    parser.add_argument("--runs", type=bounded_integer("--runs", *RUNS_RANGE), default=200,
                        help=f"timed calls per operation and round, {RUNS_RANGE[0]} to {RUNS_RANGE[1]} (default 200)")
    parser.add_argument("--rounds", type=bounded_integer("--rounds", *ROUNDS_RANGE), default=3,
                        help=f"alternating rounds of mcl and ours, {ROUNDS_RANGE[0]} to {ROUNDS_RANGE[1]} (default 3)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of markdown tables")
    arguments = parser.parse_args()

    notes = []
    mcl, why = load_mcl()
    if why:
        notes.append(why)
    context = {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "cpu": cpu_model(),
        "logicalCPUs": os.cpu_count(),
        "python": platform.python_version(),
        "mclVersion": mcl.version if mcl else None,
        "runs": arguments.runs,
        "rounds": arguments.rounds,
        "loadAverageStart": load_average(),
        "goals": {row[0] + "/" + row[2]: row[4] for row in COMPARED},
        "mclOverheadSubtracted": "the 'met' verdict and ratioLessOverhead use mcl's median less its call overhead; "
                                 "mclMedianNanoseconds and ratio are raw",
    }
    rounds = []
    failed_curves = set()
    for number in range(1, arguments.rounds + 1):
        round_ = {"mcl": {}, "ours": {}}

        def time_mcl():
            if mcl:
                round_["mcl"] = mcl.time_all(arguments.runs)

        def time_ours():
            for curve, _ in CURVES:
                if curve in failed_curves:
                    continue
                medians, reason = run_workbench(arguments.binary, curve, arguments.runs)
                if reason:
                    notes.append(reason)
                    failed_curves.add(curve)
                else:
                    round_["ours"][curve] = medians

        for step in ((time_mcl, time_ours) if number % 2 == 1 else (time_ours, time_mcl)):
            step()
        rounds.append(round_)
        print(f"round {number} of {arguments.rounds} done", file=sys.stderr)
    context["loadAverageEnd"] = load_average()

    summary = summarize(rounds, mcl is not None)
    if arguments.json:
        print(json.dumps({"context": context, **summary, "notes": notes}, indent=2, ensure_ascii=False))
    else:
        print_markdown(summary, context)
    for note in notes:
        print(f"\nnote: {note}", file=sys.stderr)
    return 0 if summary["ours"] else 1


if __name__ == "__main__":
    sys.exit(main())
