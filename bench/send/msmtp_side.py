"""The peer: Debian's msmtp submitting the same files to the same Postfix as alice.

Configured like mailfs's account: implicit TLS to the SMTPS port, the test CA, AUTH PLAIN as
alice, the password from a command (`passwordeval printenv …`, as mailfs's `password_command`),
recipients from the headers (`-t`). msmtp exits once the server answered the DATA and QUIT, so
its exit is the moment a user of msmtp knows the message was accepted.
"""
import os
import shlex
import subprocess
import time
from pathlib import Path

from servers import BenchError

ACCOUNT = "alice"


def config_text(servers, user):
    return (f"account {ACCOUNT}\n"
            f"host 127.0.0.1\nport {servers.env['SMTPS_PORT']}\n"
            "tls on\ntls_starttls off\n"
            f"tls_trust_file {servers.ca_file}\n"
            "auth plain\n"
            f"user {user}\n"
            f"passwordeval printenv {servers.password_variable(user)}\n"
            f"from {user}@example.test\n"
            f"account default : {ACCOUNT}\n")


def version():
    try:
        done = subprocess.run(["msmtp", "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return (done.stdout.splitlines() or ["unknown"])[0]


class Msmtp:
    def __init__(self, servers, user, run_dir):
        self.config = Path(run_dir) / "msmtprc"
        self.config.parent.mkdir(parents=True, exist_ok=True)
        self.config.write_text(config_text(servers, user))
        self.config.chmod(0o600)  # msmtp refuses a config others can read
        self.environment = dict(os.environ)
        self.environment[servers.password_variable(user)] = servers.password(user)

    def argv(self):
        return ["msmtp", "-C", str(self.config), "-t"]

    def send(self, path, wrapper=()):
        """Runs msmtp on one file (under WRAPPER, a command prefix, if any); returns (launched,
        exited) perf_counter stamps."""
        with open(path, "rb") as message:
            launched = time.perf_counter()
            done = subprocess.run([*wrapper, *self.argv()], stdin=message, capture_output=True, env=self.environment)
            exited = time.perf_counter()
        if done.returncode != 0:
            raise BenchError(f"msmtp failed ({done.returncode}) on {path}: {done.stderr.decode(errors='replace')}")
        return launched, exited

    def send_all(self, paths):
        """One msmtp after another from a shell loop, as a user would script it; returns
        (started, finished) perf_counter stamps."""
        script = f'for f in "$@"; do {shlex.join(self.argv())} < "$f" || exit 1; done'
        started = time.perf_counter()
        done = subprocess.run(["sh", "-c", script, "sh", *map(str, paths)],
                              capture_output=True, env=self.environment)
        finished = time.perf_counter()
        if done.returncode != 0:
            raise BenchError(f"msmtp loop failed: {done.stderr.decode(errors='replace')}")
        return started, finished
