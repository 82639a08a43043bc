"""Starting a mailfs mount, timing its start-up, reading its memory and CPU, and always unmounting."""
import os
import subprocess
import time
from pathlib import Path

START_TIMEOUT = 300.0
STOP_TIMEOUT = 15.0


class Mount:
    """One `mailfs mount` process in the foreground, its output in a log file.

    `launch` execs it and returns at once; `start` also waits until `.status` reads through
    the mount point, the start-up bench/run times. Every wait counts from `started`, taken
    right before the exec.
    """

    def __init__(self, binary, mount_point: Path, data_dir: Path, env: dict | None, log: Path,
                 config: Path | None = None):
        self.binary, self.mount_point, self.data_dir, self.env, self.log = binary, mount_point, data_dir, env, log
        self.config = config             # --config FILE, or mailfs's default
        self.process = None
        self.started = 0.0               # time.monotonic() right before the exec
        self.mounted_seconds = None      # when the mount point turned into a mount
        self.startup_seconds = None      # when .status could be read through it

    def command(self) -> list:
        config = ["--config", str(self.config)] if self.config else []
        return [str(self.binary), "mount", str(self.mount_point), *config, "--data-dir", str(self.data_dir)]

    def launch(self):
        """Execs mailfs and returns at once."""
        self.mount_point.mkdir(parents=True, exist_ok=True)
        self.mounted_seconds = self.startup_seconds = None
        with open(self.log, "ab") as log:
            self.started = time.monotonic()
            self.process = subprocess.Popen(self.command(), stdout=log, stderr=log, env=self.env)

    def start(self) -> float:
        """Launches mailfs and returns the seconds until `.status` could be read through the mount."""
        self.launch()
        return self.wait_ready(START_TIMEOUT)

    def wait_ready(self, timeout) -> float:
        """Seconds from the exec until `.status` reads through the mount point, polled every ms."""
        status = self.mount_point / ".status"
        while True:
            if self.mounted_seconds is None and os.path.ismount(self.mount_point):
                self.mounted_seconds = time.monotonic() - self.started
            if self.mounted_seconds is not None and readable(status):
                self.startup_seconds = time.monotonic() - self.started
                return self.startup_seconds
            if self.process.poll() is not None:
                raise RuntimeError(f"mailfs mount exited {self.process.returncode}; see {self.log}")
            if time.monotonic() - self.started > timeout:
                raise RuntimeError(f".status not readable after {timeout:.0f} s; see {self.log}")
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

    def cpu_seconds(self) -> float:
        """User + system CPU time of the mount process so far, all threads."""
        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def log_tail(self, lines=20) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

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
