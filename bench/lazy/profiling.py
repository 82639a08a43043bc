"""Where a cold read's time goes inside mailfs, from two extra cold reads (not in the table):
`perf trace` of the mount's system calls gives the download's timeline (command sent, last
byte received, cache file written, open() answered), `perf record` its hottest code."""
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import mount_reads
import timeline
from section import seconds

PERF_LINE = re.compile(r"^\s*([0-9.]+)%\s+(\S+)\s+\[[.k]\]\s+(.+?)\s*$")
ATTACH_SECONDS = 1.0   # lets the profiler attach to every thread before the read starts
TOP_SYMBOLS = 6
TRACED = "read,write,writev,openat,rename,renameat,renameat2"


def cold_read_profile(binary, mount, path, work, imap_port):
    if not shutil.which("perf"):
        return "Profile: perf is not installed, so no profile was taken."
    work = Path(work)
    return " ".join(["Profile (two extra cold reads, not in the table):",
                     _timeline_part(binary, mount, path, work, imap_port),
                     _hot_symbols_part(binary, mount, path, work)])


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


def _timeline_part(binary, mount, path, work, imap_port):
    output = work / "perf-trace.txt"
    fds = timeline.descriptors(mount.process.pid, imap_port)
    read = _profiled_read(binary, mount, path, ["perf", "trace", "-p", str(mount.process.pid),
                                                "-e", TRACED, "-o", str(output)])
    try:
        text = output.read_text(errors="replace")
    except OSError:
        return "perf trace: no output."
    output.unlink(missing_ok=True)
    phases = timeline.phases(text, fds)
    if phases is None:
        return "perf trace: the download's system calls were not all found."
    steps = "; ".join(f"{label} {seconds(value)}" for label, value in phases)
    return (f"Timeline of one cold read from `perf trace` of the mount's system calls (open() took "
            f"{seconds(read['open'])} under it, the reads after it {seconds(read['total'] - read['open'])}): "
            f"{steps}.")


def _hot_symbols_part(binary, mount, path, work):
    data = work / "perf.data"
    read = _profiled_read(binary, mount, path,
                          ["perf", "record", "-F", "999", "-p", str(mount.process.pid), "-o", str(data)])
    report = subprocess.run(["perf", "report", "-i", str(data), "--stdio", "--no-children",
                             "--fields", "overhead,dso,sym", "--percent-limit", "2"],
                            capture_output=True, text=True)
    data.unlink(missing_ok=True)
    rows = [match.groups() for match in map(PERF_LINE.match, report.stdout.splitlines()) if match]
    if not rows:
        return "perf record: no samples."
    names = _demangled([symbol for _, _, symbol in rows[:TOP_SYMBOLS]])
    hottest = "; ".join(f"{percent}% {name} ({dso})" for (percent, dso, _), name in zip(rows, names))
    return (f"Hottest code of the mount process during another cold read (`perf record`, {read['total']:.2f} s "
            f"under it; share of its CPU samples): {hottest}.")


def _demangled(symbols):
    """Swift symbols in readable form when `swift demangle` is there; as they are otherwise."""
    if not shutil.which("swift"):
        return symbols
    result = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(symbols),
                            capture_output=True, text=True)
    lines = [line.strip() for line in result.stdout.splitlines()]
    if result.returncode != 0 or len(lines) != len(symbols):
        return symbols
    return [line if len(line) <= 100 else line[:97] + "..." for line in lines]
