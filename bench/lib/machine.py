"""What the benchmark ran on: enough to judge whether two results are comparable."""
import os
import platform
import shutil
import subprocess
import time

from cpu import cpu_model


def facts(work_dir, mailfs_binary):
    """Machine facts as (label, value) pairs, in the order they are reported."""
    return [
        ("date", time.strftime("%Y-%m-%d %H:%M:%S %Z")),
        ("CPU", cpu_model()),
        ("cores", str(os.cpu_count())),
        ("RAM", f"{memory_total_kib() / 2**20:.1f} GiB"),
        ("kernel", platform.release()),
        ("disk free", f"{shutil.disk_usage(work_dir).free / 2**30:.0f} GiB on the file system of {work_dir}"),
        ("file system", filesystem_of(work_dir)),
        ("load average at start", " ".join(f"{load:.2f}" for load in os.getloadavg())),
        ("Swift", first_line(["swift", "--version"])),
        ("mailfs binary", mailfs_binary),
        ("libfuse", first_line(["fusermount3", "--version"])),
        ("idle vCPUs", idle_policy()),
    ]


def memory_total_kib():
    with open("/proc/meminfo") as info:
        for line in info:
            if line.startswith("MemTotal:"):
                return int(line.split()[1])
    return 0


def filesystem_of(path):
    """The type and device of the file system holding path (from findmnt)."""
    line = first_line(["findmnt", "-n", "-o", "FSTYPE,SOURCE", "--target", str(path)])
    return " ".join(line.split()) or "unknown"


def idle_policy():
    """How an idle CPU waits: a guest that halts at once pays a host exit for every wake-up."""
    try:
        driver = open("/sys/devices/system/cpu/cpuidle/current_driver").read().strip()
    except OSError:
        return "unknown"
    try:
        polling = int(open("/sys/module/haltpoll/parameters/guest_halt_poll_ns").read())
    except (OSError, ValueError):
        return f"cpuidle driver {driver}"
    waits = "halts an idle vCPU at once" if polling == 0 else f"polls up to {polling / 1000:.0f} µs before halting"
    return f"cpuidle driver {driver}, guest_halt_poll_ns {polling} ({waits})"


def first_line(argv):
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    output = (done.stdout or done.stderr).strip()
    return output.splitlines()[0] if output else "unknown"
