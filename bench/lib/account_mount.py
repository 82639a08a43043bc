"""A mount of one IMAP account of the test servers, timed through its .status, .log and .control.

There is no one-shot sync command, so the initial sync is `mailfs mount` from exec until the
first "sync finished" line of .log (the engine syncs at once on start; .status then says
`phase: idle` with a `last_sync`), and an incremental sync is `echo sync > .control` until
the next "sync finished" line.
"""
import os
import re
import subprocess
import time
from pathlib import Path

from mount import Mount
from servers import BenchError


class MountExited(BenchError):
    """The mount process ended while the benchmark waited on it (unmounted or signalled)."""


ACCOUNT = "bench"
# Every read of .log or .status costs the mount CPU (measured at 10,000 messages: about 2 ms
# for .log, 40 ms for .status; the report shows the figures of each run), so polls back off:
# 5 % of the time waited so far, between 5 and 100 ms. The error stays under 5 % of the figure.
MIN_POLL_SECONDS = 0.005
MAX_POLL_SECONDS = 0.100
FINISHED = re.compile(r" (?:info|error) sync (?:finished in ([0-9.]+) s|failed: .*)$")


class AccountMount(Mount):
    """`mailfs mount` of USER's account on the test servers, with a fresh store under RUN_DIR at
    every launch. A benchmark that needs more in the config overrides `config_text`."""

    def __init__(self, binary, servers, user, run_dir):
        run_dir = Path(run_dir)
        super().__init__(binary, run_dir / "mnt", run_dir / "store", env=None, log=run_dir / "mailfs.log",
                         config=run_dir / "config.toml")
        self.servers = servers
        self.user = user
        self.run_dir = run_dir
        self.account_dir = self.mount_point / ACCOUNT

    def config_text(self):
        """One generic IMAP account over implicit TLS; every setting at mailfs's default except the
        poll interval, raised so no periodic sync lands inside a measurement."""
        servers, user = self.servers, self.user
        return (f'[defaults]\npoll_interval_seconds = 3600\n\n'
                f'[accounts.{ACCOUNT}]\naddress = "{user}@example.test"\nusername = "{user}"\n'
                f'password_command = "printenv {servers.password_variable(user)}"\n'
                f'ca_file = "{servers.ca_file}"\n\n'
                f'[accounts.{ACCOUNT}.imap]\nhost = "127.0.0.1"\nport = {servers.port}\nsecurity = "tls"\n')

    def launch(self):
        """A fresh store and config, then the exec; returns at once (the clock starts here)."""
        subprocess.run(["rm", "-rf", str(self.run_dir)], check=True)
        self.mount_point.mkdir(parents=True)
        self.data_dir.mkdir()
        self.config.write_text(self.config_text())
        self.env = dict(os.environ)
        self.env[self.servers.password_variable(self.user)] = self.servers.password(self.user)
        super().launch()

    def wait_ready(self, timeout=60):
        """Seconds from exec until the account's .status can be read."""
        self._wait(lambda: self._read(".status") is not None, timeout, "the mount to come up")
        return time.monotonic() - self.started

    def wait_synced(self, timeout):
        """Seconds from exec until the first sync has finished.

        Polls .log for its "sync finished" line, which the engine writes right after it sets
        `phase: idle` and `last_sync` (.log is far cheaper to read than .status); then checks
        .status once."""
        self._wait(lambda: self.finished_lines(), timeout, "the initial sync")
        elapsed = time.monotonic() - self.started
        status = self.status()
        if status.get("phase") != "idle" or status.get("last_sync", "never") == "never":
            raise BenchError(f"mailfs sync did not finish cleanly: phase {status.get('phase')}, "
                             f"last_error {status.get('last_error')}; .log: {self.finished_lines()[0]}")
        return elapsed

    def sync_now(self, timeout=120):
        """`echo sync > .control` until the next finished sync in .log.

        Returns (wall seconds, the engine's own "sync finished in X s" figure, CPU seconds)."""
        before = self.finished_lines()
        cpu = self.cpu_seconds()
        started = time.monotonic()
        with open(self.account_dir / ".control", "w") as control:
            control.write("sync\n")
        self._wait(lambda: len(self.finished_lines()) > len(before), timeout, "the triggered sync")
        wall = time.monotonic() - started
        cpu = self.cpu_seconds() - cpu
        line = self.finished_lines()[len(before)]
        match = FINISHED.search(line)
        if match is None or match.group(1) is None:
            raise BenchError(f"mailfs sync failed: {line}")
        return wall, float(match.group(1)), cpu

    def finished_lines(self):
        return [line for line in (self._read(".log") or "").splitlines() if FINISHED.search(line)]

    def syncs_started(self):
        """How many syncs .log shows started: one more than expected means a sync ran unasked."""
        return sum(line.endswith(" sync started") for line in (self._read(".log") or "").splitlines())

    def engine_seconds(self):
        """The "sync finished in X s" figure of the first sync, or None."""
        lines = self.finished_lines()
        match = FINISHED.search(lines[0]) if lines else None
        return float(match.group(1)) if match and match.group(1) else None

    def status(self):
        """The account's .status keys, plus "messages": the sum of the folder table's column."""
        text = self._read(".status") or ""
        head, _, table = text.partition("\n\n")
        values = dict(line.split(": ", 1) for line in head.splitlines() if ": " in line)
        rows = [row.split() for row in table.splitlines()[1:]]
        values["messages"] = sum(int(row[4]) for row in rows if len(row) >= 6 and row[4].isdigit())
        return values

    def read_cost(self, name, reads=20):
        """(wall, mount CPU) seconds of one read of the account's NAME, averaged over READS."""
        cpu, started = self.cpu_seconds(), time.monotonic()
        for _ in range(reads):
            self._read(name)
        return (time.monotonic() - started) / reads, (self.cpu_seconds() - cpu) / reads

    def _read(self, name):
        try:
            with open(self.account_dir / name) as file:
                return file.read()
        except OSError:
            return None

    def _wait(self, condition, timeout, what):
        started = time.monotonic()
        deadline = started + timeout
        while not condition():
            if self.process.poll() is not None:
                raise MountExited(f"mailfs exited ({self.process.returncode}) waiting for {what}:\n{self.log_tail()}")
            if time.monotonic() > deadline:
                raise BenchError(f"timed out after {timeout} s waiting for {what}")
            time.sleep(min(MAX_POLL_SECONDS, max(MIN_POLL_SECONDS, (time.monotonic() - started) / 20)))
