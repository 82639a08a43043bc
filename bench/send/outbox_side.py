"""mailfs's side: the account mount of alice's account, plus her SMTP server (SMTPS, the test
CA) and `undo_seconds = 0`, so a file copied into outbox/ goes at once."""
import os
import shlex
import subprocess
import time

from account_mount import ACCOUNT, AccountMount
from servers import BenchError

PROBLEMS = (" failed: ", " refused: ", " not sent: ", "saving the sent copy failed")


class OutboxMount(AccountMount):
    @property
    def outbox(self):
        return self.account_dir / "outbox"

    def config_text(self):
        """The account mount's config with the undo delay off and the account's SMTP server."""
        text = super().config_text()
        if "[defaults]\n" not in text:
            raise BenchError("bench/lib/account_mount.py's config has no [defaults] table to extend")
        text = text.replace("[defaults]\n", "[defaults]\nundo_seconds = 0\n", 1)
        return text + (f'\n[accounts.{ACCOUNT}.smtp]\nhost = "127.0.0.1"\n'
                       f'port = {self.servers.env["SMTPS_PORT"]}\nsecurity = "tls"\n')

    def copy_in(self, path):
        """`cp FILE outbox/`; returns (launched, returned) perf_counter stamps. cp returns once
        close() has checked the message and committed it to the queue."""
        launched = time.perf_counter()
        done = subprocess.run(["cp", str(path), str(self.outbox) + "/"], capture_output=True)
        returned = time.perf_counter()
        if done.returncode != 0:
            raise BenchError(f"cp {path} into outbox/ failed: {done.stderr.decode(errors='replace')}"
                             f"{self.log_problems()}")
        return launched, returned

    def copy_all(self, paths):
        """A shell loop of cp, one file after another; returns (started, finished) stamps."""
        script = f'for f in "$@"; do cp "$f" {shlex.quote(str(self.outbox))}/ || exit 1; done'
        started = time.perf_counter()
        done = subprocess.run(["sh", "-c", script, "sh", *map(str, paths)], capture_output=True)
        finished = time.perf_counter()
        if done.returncode != 0:
            raise BenchError(f"the cp loop failed: {done.stderr.decode(errors='replace')}{self.log_problems()}")
        return started, finished

    def log_lines(self):
        try:
            with open(self.account_dir / ".log") as log:
                return log.read().splitlines()
        except OSError:
            return []

    def log_problems(self):
        """The .log lines about sends that went wrong, for error messages ("" when none)."""
        lines = [line for line in self.log_lines() if any(problem in line for problem in PROBLEMS)]
        return ("\n.log:\n" + "\n".join(lines[-10:])) if lines else ""

    def state_of(self, name):
        """outbox/NAME's user.mailfs.state, or None once the message has left outbox/. The
        attribute is read from the store on every call; a listing may be cached by the kernel."""
        try:
            return os.getxattr(self.outbox / name, "user.mailfs.state").decode()
        except FileNotFoundError:
            return None

    def wait_gone(self, names, timeout, poll=0.02):
        """Waits until every one of NAMES has left outbox/ (its Sent copy saved: the last step);
        returns the perf_counter stamp it was seen. Polls the last name only until it is gone:
        the queue is first in, first out."""
        deadline = time.monotonic() + timeout
        while True:
            if self.state_of(names[-1]) is None:
                left = [name for name in names if self.state_of(name) is not None]
                if not left:
                    return time.perf_counter()
            if self.process.poll() is not None:
                raise BenchError(f"mailfs exited ({self.process.returncode}):\n{self.log_tail()}")
            if time.monotonic() > deadline:
                raise BenchError(f"{names[-1]} still in outbox/ ({self.state_of(names[-1])}) after {timeout} s"
                                 f"{self.log_problems()}")
            time.sleep(poll)

    def outbox_left(self):
        """{name: user.mailfs.state} of the messages still in outbox/."""
        states = {name: self.state_of(name) for name in os.listdir(self.outbox)}
        return {name: state for name, state in states.items() if state is not None}
