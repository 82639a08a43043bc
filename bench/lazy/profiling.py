"""Where a cold read's time goes inside mailfs: `perf record` of the mount process during one
extra cold read (hottest symbols), then `strace -c` during another (system calls). Neither
run counts in the table; both tools are optional and the note says which were missing."""
import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import mount_reads

PERF_LINE = re.compile(r"^\s*([0-9.]+)%\s+(\S+)\s+\[[.k]\]\s+(.+?)\s*$")
ATTACH_SECONDS = 1.0   # lets the profiler attach to every thread before the read starts
TOP_SYMBOLS = 8
TOP_SYSCALLS = 5


def cold_read_profile(binary, mount, path, work):
    parts = [_perf_part(binary, mount, path, Path(work)), _strace_part(binary, mount, path, Path(work))]
    return "Profile (one extra cold read each, not in the table): " + " ".join(parts)


def _profiled_read(binary, mount, path, argv):
    """Empties the cache, starts ARGV (a profiler attached to the mount), does one cold read,
    stops the profiler with SIGINT; returns the read's timings."""
    mount_reads.clear_cache(binary, mount)
    profiler = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(ATTACH_SECONDS)
        return mount_reads.first_read(path)
    finally:
        profiler.send_signal(signal.SIGINT)
        try:
            profiler.wait(timeout=60)
        except subprocess.TimeoutExpired:
            profiler.kill()
            profiler.wait()


def _perf_part(binary, mount, path, work):
    if not shutil.which("perf"):
        return "perf: not installed."
    data = work / "perf.data"
    read = _profiled_read(binary, mount, path,
                          ["perf", "record", "-F", "999", "-p", str(mount.process.pid), "-o", str(data)])
    report = subprocess.run(["perf", "report", "-i", str(data), "--stdio", "--no-children",
                             "--sort", "dso,symbol", "--percent-limit", "1.5"], capture_output=True, text=True)
    data.unlink(missing_ok=True)
    rows = [match.groups() for match in map(PERF_LINE.match, report.stdout.splitlines()) if match]
    if not rows:
        return "perf: no samples."
    names = _demangled([symbol for _, _, symbol in rows[:TOP_SYMBOLS]])
    hottest = "; ".join(f"{percent}% {name} ({dso})" for (percent, dso, _), name in zip(rows, names))
    return (f"perf (whole mount process, cold read {read['total']:.2f} s under it), hottest symbols of its "
            f"CPU samples: {hottest}.")


def _strace_part(binary, mount, path, work):
    if not shutil.which("strace"):
        return "strace: not installed."
    output = work / "strace.txt"
    threads = sorted(os.listdir(f"/proc/{mount.process.pid}/task"), key=int)
    argv = ["strace", "-c", "-f", "-o", str(output)] + [arg for tid in threads for arg in ("-p", tid)]
    read = _profiled_read(binary, mount, path, argv)
    try:
        text = output.read_text(errors="replace")
    except OSError:
        return "strace -c: no summary."
    output.unlink(missing_ok=True)
    calls = _syscalls(text)
    top = "; ".join(f"{name} {count:,} calls ({share}% of syscall time)" for name, count, share in calls[:TOP_SYSCALLS])
    return f"strace -c (all {len(threads)} threads; cold read {read['total']:.2f} s under it): {top}."


def _syscalls(text):
    """(name, calls, % time) rows of an `strace -c` summary, by time spent."""
    rows = []
    for line in text.splitlines():
        fields = line.split()
        if len(fields) >= 5 and fields[0].replace(".", "").isdigit() and fields[-1] != "total":
            try:
                rows.append((fields[-1], int(fields[3]), fields[0]))
            except ValueError:
                continue
    return rows


def _demangled(symbols):
    """Swift symbols in readable form when `swift demangle` is there; as they are otherwise."""
    if not shutil.which("swift"):
        return symbols
    result = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(symbols),
                            capture_output=True, text=True)
    lines = result.stdout.splitlines()
    shortened = [line if len(line) <= 120 else line[:117] + "..." for line in lines]
    return shortened if result.returncode == 0 and len(lines) == len(symbols) else symbols
