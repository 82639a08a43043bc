"""The real Dovecot both sync clients talk to: .ci/servers' scripts, started once per run."""
import re
import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPTS = REPO / ".ci" / "servers"
ENV_LINE = re.compile(r"^export MAILFS_TEST_([A-Z0-9_]+)='([^']*)'$")


class BenchError(Exception):
    """Something the benchmark needs failed; the message says what."""


def install():
    """Dovecot, Postfix, mbsync (isync) and GNU time, quietly and only what is missing (needs root)."""
    result = subprocess.run([str(SCRIPTS / "install.sh"), "isync", "time"], capture_output=True, text=True)
    if result.returncode != 0:
        raise BenchError(f"installing the servers and isync failed:\n{result.stderr}")


class Servers:
    """Dovecot (and Postfix, which start.sh brings along) on 127.0.0.1 high ports."""

    def __init__(self, state_dir):
        self.state_dir = Path(state_dir)
        self.env = {}
        self.started = False

    def start(self):
        """Starts from empty Maildirs: a state dir left by an earlier run is stopped and removed."""
        self.state_dir.parent.mkdir(parents=True, exist_ok=True)
        if self.state_dir.exists():
            subprocess.run([str(SCRIPTS / "stop.sh"), str(self.state_dir)], capture_output=True)
            shutil.rmtree(self.state_dir)
        self.started = True  # stop.sh is safe after a partial start
        result = subprocess.run([str(SCRIPTS / "start.sh"), str(self.state_dir)], capture_output=True, text=True)
        if result.returncode != 0:
            raise BenchError(f"start.sh failed:\n{result.stdout}{result.stderr}")
        self.env = read_env(self.state_dir / "env")

    def stop(self):
        if self.started:
            subprocess.run([str(SCRIPTS / "stop.sh"), str(self.state_dir)], capture_output=True)
            self.started = False

    def remove(self):
        """Deletes the state dir (certificates, configs, the seeded Maildirs) once stopped."""
        if not self.started:
            shutil.rmtree(self.state_dir, ignore_errors=True)

    @property
    def port(self):
        return int(self.env["IMAPS_PORT"])

    @property
    def ca_file(self):
        return self.env["CA_FILE"]

    def password(self, user):
        return self.env[f"{user.upper()}_PASSWORD"]

    def password_variable(self, user):
        """The environment variable that holds USER's password, for password commands."""
        return f"MAILFS_TEST_{user.upper()}_PASSWORD"

    def dovecot_version(self):
        result = subprocess.run(["dovecot", "--version"], capture_output=True, text=True)
        return result.stdout.strip() or "unknown"


def read_env(path):
    """start.sh's env file as {NAME after MAILFS_TEST_: value}."""
    values = {}
    for line in Path(path).read_text().splitlines():
        match = ENV_LINE.match(line.strip())
        if match:
            values[match.group(1)] = match.group(2)
    return values
