"""mbsync's side: the same account pulled into a Maildir, every run timed from exec to exit."""
import os
import subprocess
import time
from pathlib import Path

from servers import BenchError

CHANNEL = "bench"


def rc_text(servers, user, maildir, fsync):
    """Pull-only, every folder of the account (like mailfs), mbsync's defaults otherwise
    (FSync yes unless FSYNC is false). isync 1.4 names TLS `SSLType`, and cannot match a
    certificate's IP address, so the host is `localhost` (127.0.0.1 in /etc/hosts, a SAN of
    the test certificate)."""
    return (("" if fsync else "FSync no\n\n") +
            f"IMAPAccount {CHANNEL}\nHost localhost\nPort {servers.port}\nUser {user}\n"
            f'PassCmd "printenv {servers.password_variable(user)}"\n'
            f"SSLType IMAPS\nCertificateFile {servers.ca_file}\n\n"
            f"IMAPStore remote\nAccount {CHANNEL}\n\n"
            f"MaildirStore local\nPath {maildir}/\nInbox {maildir}/INBOX\nSubFolders Verbatim\n\n"
            f"Channel {CHANNEL}\nFar :remote:\nNear :local:\nPatterns *\nCreate Near\nSync Pull\n"
            f"SyncState *\n")


class Mbsync:
    """mbsync of USER's account into a fresh Maildir under RUN_DIR."""

    def __init__(self, servers, user, run_dir, fsync=True):
        self.servers = servers
        self.user = user
        self.run_dir = Path(run_dir)
        self.maildir = self.run_dir / "maildir"
        self.rc = self.run_dir / "mbsyncrc"
        subprocess.run(["rm", "-rf", str(self.run_dir)], check=True)
        self.maildir.mkdir(parents=True)
        self.rc.write_text(rc_text(servers, user, self.maildir, fsync))

    def run(self, timeout=3600):
        """One `mbsync -q -c RC bench` under GNU time; returns (wall seconds, peak RSS in KiB,
        CPU seconds). The peak is time's %M (ru_maxrss), the CPU time its %U + %S. Not wait4 from Python: a child forked from Python
        keeps the interpreter's high-water mark through exec, and mbsync's is smaller."""
        environment = dict(os.environ)
        environment[self.servers.password_variable(self.user)] = self.servers.password(self.user)
        peak_file = self.run_dir / "peak-kib"
        command = ["/usr/bin/time", "-f", "%M %U %S", "-o", str(peak_file), "mbsync", "-q", "-c", str(self.rc), CHANNEL]
        with open(self.run_dir / "mbsync.log", "ab") as output:
            started = time.monotonic()
            try:
                result = subprocess.run(command, stdout=output, stderr=subprocess.STDOUT, env=environment,
                                        timeout=timeout)
            except subprocess.TimeoutExpired as error:
                raise BenchError(f"mbsync ran longer than {timeout} s") from error
            wall = time.monotonic() - started
        if result.returncode != 0:
            raise BenchError(f"mbsync exited {result.returncode}:\n{self.log_tail()}")
        peak, user, system = peak_file.read_text().split()[-3:]
        return wall, int(peak), float(user) + float(system)

    def inbox_messages(self):
        return messages_under(self.maildir / "INBOX")

    def messages(self):
        """Messages in every folder of the Maildir."""
        return messages_under(self.maildir)

    def log_tail(self, lines=20):
        try:
            return "\n".join((self.run_dir / "mbsync.log").read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


def messages_under(root):
    """Message files in the cur/ and new/ directories at or below ROOT."""
    return sum(1 for path in root.glob("**/*") if path.is_file() and path.parent.name in ("cur", "new"))
