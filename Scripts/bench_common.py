"""What the benchmark scripts share: argument types that range-check, a child's time and peak memory
under a timeout, and the machine's description printed beside every figure (Scripts/bench_mcl.py,
Scripts/measure_memory.py, Scripts/bench_cassettes.py)."""

import argparse
import os
import platform
import signal
import subprocess
import time


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


def integer_list(name, low, high):
    """An argparse type: comma-separated integers from low to high, else an error naming the option and the range."""
    def parse(text):
        values = []
        if not text.strip():
            return values
        for item in text.split(","):
            try:
                value = int(item.strip(), 10)
            except ValueError:
                value = None
            if value is None or not low <= value <= high:
                raise argparse.ArgumentTypeError(
                    f"{name}: each value must be an integer from {low} to {high}, got {item.strip()!r}")
            values.append(value)
        return values
    return parse


def measure(command, timeout, log_path):
    """Runs `command` (stdout and stderr to `log_path`) and returns (status, peak RSS KiB, seconds).

    Waits with `os.wait4(pid, WNOHANG)` polled every 20 ms, at most `timeout` seconds; a command still
    running then is killed (SIGKILL, by its process id) and its status is reported as None.
    """
    with open(log_path, "wb") as log:
        start = time.perf_counter()
        child = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = start + timeout
        killed = False
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid == child.pid:
                break
            if time.perf_counter() > deadline and not killed:
                os.kill(child.pid, signal.SIGKILL)
                killed = True
            time.sleep(0.02)
        seconds = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)  # reaped here; keep Popen from waiting again
    return (None if killed else child.returncode), usage.ru_maxrss, seconds


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
