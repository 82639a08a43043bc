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


def first_line(argv):
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    output = (done.stdout or done.stderr).strip()
    return output.splitlines()[0] if output else "unknown"
