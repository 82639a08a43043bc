"""Where a cold read's time goes inside mailfs, from two extra cold reads (not in the table):
`perf trace` of the mount's system calls gives the download's timeline (command sent, open()
answered, last byte received, file renamed into the cache), `perf record` its hottest code."""
import shutil
import signal
import subprocess
import time
from pathlib import Path

import mount_reads
import timeline
from figures import seconds
from swift_symbols import demangled

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
    threads = _perf_report(data, "overhead,comm")
    symbols = _perf_report(data, "overhead,comm,dso,sym")
    data.unlink(missing_ok=True)
    if not threads or not symbols:
        return "perf record: no samples."
    names = demangled([fields[3] for fields in symbols[:TOP_SYMBOLS] if len(fields) == 4])
    hottest = "; ".join(f"{fields[0]}% {name} ({fields[2]}, {_thread(fields[1])})"
                        for fields, name in zip(symbols, names))
    busiest = ", ".join(f"{_thread(comm)} {percent}%" for percent, comm in threads[:3])
    return (f"CPU of the mount process during another cold read (`perf record`, {read['total']:.2f} s under "
            f"it), by thread: {busiest}; hottest code: {hottest}.")


def _perf_report(data, fields):
    """perf report's rows (percent, then each other field) above 1.5 %, CPU samples of the mount only."""
    report = subprocess.run(["perf", "report", "-i", str(data), "--stdio", "--no-children", "--fields", fields,
                             "--percent-limit", "1.5"], capture_output=True, text=True)
    rows = []
    for line in report.stdout.splitlines():
        if line.startswith("#") or "%" not in line:
            continue
        percent, _, rest = line.strip().partition("%")
        head = rest.split(None, len(fields.split(",")) - 2)
        if head and head[-1].startswith("[") and len(head) == 3:  # "[.] symbol" after the dso
            head = head[:2] + [head[2].partition("] ")[2]]
        rows.append([percent] + [field.strip() for field in head])
    return rows


def _thread(comm):
    """perf's 15-character thread names, said plainly."""
    if comm.startswith("NIO-"):
        return "network event loop"
    if comm.endswith("default-qos") or comm.endswith("overcommit"):
        return "Swift task threads"
    return f"thread {comm}"
