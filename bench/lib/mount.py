"""Starting a mailfs mount, timing its start-up, reading its memory, and always unmounting."""
import os
import subprocess
import time
from pathlib import Path

START_TIMEOUT = 300.0
STOP_TIMEOUT = 15.0


class Mount:
    """One `mailfs mount` process in the foreground, its output in a log file."""

    def __init__(self, binary: Path, mount_point: Path, data_dir: Path, env: dict, log: Path):
        self.binary, self.mount_point, self.data_dir, self.env, self.log = binary, mount_point, data_dir, env, log
        self.process = None
        self.mounted_seconds = None      # when the mount point turned into a mount
        self.startup_seconds = None      # when .status could be read through it

    def start(self) -> float:
        """Execs mailfs and returns the seconds until `.status` could be read through the mount."""
        self.mount_point.mkdir(parents=True, exist_ok=True)
        status = self.mount_point / ".status"
        with open(self.log, "ab") as log:
            started = time.perf_counter()
            self.process = subprocess.Popen(
                [str(self.binary), "mount", str(self.mount_point), "--data-dir", str(self.data_dir)],
                stdout=log, stderr=log, env=self.env)
        while True:
            if self.mounted_seconds is None and os.path.ismount(self.mount_point):
                self.mounted_seconds = time.perf_counter() - started
            if self.mounted_seconds is not None and readable(status):
                self.startup_seconds = time.perf_counter() - started
                return self.startup_seconds
            if self.process.poll() is not None:
                raise RuntimeError(f"mailfs mount exited {self.process.returncode}; see {self.log}")
            if time.perf_counter() - started > START_TIMEOUT:
                raise RuntimeError(f".status not readable after {START_TIMEOUT:.0f} s; see {self.log}")
            time.sleep(0.001)

    def memory_kib(self) -> dict:
        """VmRSS and VmHWM of the mount process, in KiB, from /proc/PID/status."""
        values = {}
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                key, _, rest = line.partition(":")
                if key in ("VmRSS", "VmHWM"):
                    values[key] = int(rest.split()[0])
        return values

    def stop(self):
        """Unmounts with fusermount3 -u; if that fails (busy), SIGTERM, which makes mailfs unmount
        lazily; SIGKILL and a lazy unmount only as the last resort. Safe to repeat."""
        running = self.process is not None and self.process.poll() is None
        unmounted = subprocess.run(["fusermount3", "-u", str(self.mount_point)], capture_output=True).returncode == 0
        if running and not unmounted:
            self.process.terminate()
        if running:
            try:
                self.process.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if os.path.ismount(self.mount_point):
            subprocess.run(["fusermount3", "-uz", str(self.mount_point)], capture_output=True)

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.stop()


def readable(path: Path) -> bool:
    try:
        with open(path, "rb") as file:
            file.read()
        return True
    except OSError:
        return False
