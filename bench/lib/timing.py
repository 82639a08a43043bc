"""Running a command and timing it, dropping the page cache, and small statistics.

Every measured command runs as a child process timed with perf_counter from just
before the fork to just after wait4, so both sides pay the same exec overhead;
wait4 also gives the child's own peak memory (ru_maxrss).
"""
import math
import os
import statistics
import subprocess
import tempfile
import time
from dataclasses import dataclass

# The C locale on both sides: no locale-aware sorting in ls, no UTF-8 decoding in grep.
ENV = dict(os.environ, LC_ALL="C")


@dataclass
class Run:
    seconds: float
    output: bytes
    max_rss_kib: int

    @property
    def lines(self) -> int:
        return self.output.count(b"\n")


class CommandFailed(RuntimeError):
    pass


def run(argv, *, env=None, keep_output=True, allowed_exit=(0,)):
    """Runs argv, returns its wall time, stdout (or b"" when not kept) and peak RSS.

    stdout always goes to a pipe that is read to the end: GNU grep stops at the first
    match when its output is /dev/null, so /dev/null would measure the wrong thing.
    """
    with tempfile.TemporaryFile() as errors:
        started = time.perf_counter()
        child = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=errors, env=env or ENV)
        try:
            chunks = []
            while chunk := child.stdout.read(1 << 20):
                if keep_output:
                    chunks.append(chunk)
            _, status, usage = os.wait4(child.pid, 0)
        except BaseException:
            child.kill()            # interrupted: leave no child holding the mount busy
            child.wait()
            raise
        seconds = time.perf_counter() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        child.stdout.close()
        if child.returncode not in allowed_exit:
            errors.seek(0)
            message = errors.read().decode(errors="replace").strip()[-2000:]
            raise CommandFailed(f"{' '.join(map(str, argv))} exited {child.returncode}: {message}")
    return Run(seconds, b"".join(chunks), usage.ru_maxrss)


def read_file(path) -> float:
    """Seconds to open, read to the end and close a file from this process (no exec)."""
    started = time.perf_counter()
    with open(path, "rb", buffering=0) as file:
        while file.read(1 << 17):
            pass
    return time.perf_counter() - started


def can_drop_caches() -> bool:
    """Only root can drop the page cache (and some containers forbid even that)."""
    try:
        drop_caches()
        return True
    except OSError:
        return False


def drop_caches():
    """Writes dirty pages, then drops the page cache, dentries and inodes."""
    os.sync()
    with open("/proc/sys/vm/drop_caches", "w") as control:
        control.write("3\n")


def median(values):
    return statistics.median(values)


def percentile(values, fraction):
    """Nearest-rank percentile: the smallest value with `fraction` of the values at or below it."""
    ordered = sorted(values)
    rank = min(len(ordered), max(1, math.ceil(fraction * len(ordered))))
    return ordered[rank - 1]
