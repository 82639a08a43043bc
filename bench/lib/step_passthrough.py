"""The physical limit of FUSE here: bench/passthrough (a trivial C libfuse3 file system serving
the same Maildir from disk) against the Maildir itself, for the same `grep -r` and `ls -l`; and
the same `grep -r` with the passthrough's OPEN turned off (`--no-open`), the least any FUSE file
system pays here at all; and without OPEN but answering FLUSH (`--no-open --flush`), what it pays
when close() must still be able to fail; and with OPEN, the CPUs kept polling as mailfs keeps them
during a burst (a CPU latency request of 0 µs, held for the whole measurement, both sides)."""
import os
import struct
import subprocess
import time
from pathlib import Path

from compare import Setup, side_by_side

MOUNT_TIMEOUT = 30.0


class Passthrough:
    """bench/passthrough [--no-open] [--flush] SOURCE MOUNTPOINT in the foreground; unmounted on exit."""

    def __init__(self, binary: Path, source: Path, mount_point: Path, flags: tuple = (), env: dict = None):
        self.binary, self.source, self.mount_point = binary, source, mount_point
        self.flags = list(flags)
        self.env = env
        self.process = None

    def __enter__(self):
        self.mount_point.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen([str(self.binary), *self.flags, str(self.source), str(self.mount_point)],
                                        env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + MOUNT_TIMEOUT
        while not os.path.ismount(self.mount_point):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{self.binary} did not mount {self.mount_point}")
            time.sleep(0.01)
        return self

    def __exit__(self, *_):
        subprocess.run(["fusermount3", "-uz", str(self.mount_point)], capture_output=True)
        self.process.wait()


class CPUsPolling:
    """Holds a CPU latency request of 0 µs (/dev/cpu_dma_latency, root only): idle CPUs poll
    instead of halting, as they do while mailfs answers a burst of requests (BurstWakeLatency)."""

    DEVICE = "/dev/cpu_dma_latency"

    @staticmethod
    def applies() -> bool:
        return os.access(CPUsPolling.DEVICE, os.W_OK)

    def __enter__(self):
        self.descriptor = os.open(self.DEVICE, os.O_WRONLY)
        os.write(self.descriptor, struct.pack("i", 0))
        return self

    def __exit__(self, *_):
        os.close(self.descriptor)


def measure(setup: Setup, binary: Path) -> list:
    """ls -l of the big folder and grep -r over everything, passthrough vs Maildir, cold and warm.
    Row keys start with `fuse-`; in those rows the first column is the passthrough."""
    mount_point = setup.mount_point.with_name("passthrough-mnt")
    big = len(os.listdir(setup.corpus / ".Big" / "cur"))

    def grep_rows(key: str, name: str) -> list:
        return side_by_side(setup, key, f"{name}: grep -r {setup.word}",
                            ["grep", "-r", setup.word, str(mount_point)],
                            ["grep", "-r", setup.word, str(setup.corpus)], allowed_exit=(0, 1)).rows

    with Passthrough(binary, setup.corpus, mount_point):
        rows = side_by_side(setup, "fuse-ls-l", f"C passthrough FUSE: ls -l Big ({big:,} msgs)",
                            ["ls", "-l", str(mount_point / ".Big" / "cur")],
                            ["ls", "-l", str(setup.corpus / ".Big" / "cur")]).rows
        rows += grep_rows("fuse-grep", "C passthrough FUSE")
        if CPUsPolling.applies():
            with CPUsPolling():
                rows += grep_rows("fuse-polling-grep", "C passthrough FUSE, CPUs kept polling")
    with Passthrough(binary, setup.corpus, mount_point, ("--no-open",)):
        rows += grep_rows("fuse-noopen-grep", "C passthrough FUSE without OPEN")
    with Passthrough(binary, setup.corpus, mount_point, ("--no-open", "--flush")):
        rows += grep_rows("fuse-noopen-flush-grep", "C passthrough FUSE without OPEN, with FLUSH")
    setup.notes.append("C passthrough FUSE rows: the first column is bench/passthrough serving the Maildir "
                       "(not mailfs); their ratio is the least any FUSE file system that answers OPEN pays on "
                       "this kernel. \"without OPEN\": the same with OPEN answered ENOSYS (the kernel then "
                       "sends no OPEN or RELEASE for any file of the mount and keeps pages across opens). \"with FLUSH\": the "
                       "same, but FLUSH answered instead of ENOSYS, so the kernel sends one at every close() (a file "
                       "opened without OPEN has no FOPEN_NOFLUSH); that is what it costs to keep close() able to fail. "
                       "\"CPUs kept polling\": with OPEN, a CPU latency request of 0 µs held through both sides' "
                       "runs, which mailfs makes itself during a burst of requests (docs/DECISIONS.md).")
    return rows
