"""What the benchmark scripts share: argument types that range-check, and the machine's
description printed beside every figure (Scripts/bench_mcl.py, Scripts/measure_memory.py)."""

import argparse
import os
import platform


def bounded_integer(name, low, high):
    """An argparse type: an integer from low to high, else an error naming the option and the range."""
    def parse(text):
        try:
            value = int(text, 10)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{name} must be an integer from {low} to {high}, got {text!r}")
        return value
    return parse


def cpu_model():
    """The processor's model name from /proc/cpuinfo, else what the platform module knows."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def load_average():
    """The 1, 5 and 15 minute load averages, rounded, or None where the system has none."""
    try:
        return [round(value, 2) for value in os.getloadavg()]
    except OSError:
        return None
