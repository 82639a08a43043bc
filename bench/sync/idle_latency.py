"""New mail pushed by IDLE: another client APPENDs one message to the INBOX; how long until
its file is in the mounted INBOX directory, with no `.control` sync and the poll interval
out of the way (an hour).

Each sample: a fresh message (unique Subject) is appended by a logged-in session of its own;
the clock starts at the APPEND's tagged OK (the message is committed on the server). The file's
name is known in advance (names are `yyyy-MM-dd HHmm <sender> - <subject>.eml` in UTC), so the
mount is asked for that one name (a stat every POLL_SECONDS, a LOOKUP to the daemon while it
is missing) rather than listing a large folder. The INBOX is listed once before each sample,
as by someone looking at it: the mount then holds that listing, and the new name shows only
once the mount has noticed the store changed (a folder nobody listed is answered from the
store directly, which would leave that part out).

A probe session of our own IDLEs on the same INBOX beside the mount: its EXISTS shows when
the server told its IDLE clients. Dovecot waits 500 ms after a mailbox changes before it
notifies its IDLE sessions (NOTIFY_DELAY_MSECS in src/lib-storage/mailbox-watch.c), so that
part is the server's; what follows it is mailfs's (its own EXISTS arrives with the probe's:
both sessions wait on the same change).
"""
import os
import statistics
import threading
import time

from bulk_append import login
from servers import BenchError

SAMPLES = 21
PAUSE_SECONDS = 1.0  # lets the previous sample's folder sync settle
POLL_SECONDS = 0.002
TIMEOUT_SECONDS = 30
SENDER = "Probe"
DATE_HEADER = "Sat, 21 Nov 2026 12:30:00 +0000"
DATE_IN_NAME = "2026-11-21 1230"


def message(subject):
    return (f"From: {SENDER} <probe@example.test>\r\nTo: bench@example.test\r\nSubject: {subject}\r\n"
            f"Date: {DATE_HEADER}\r\nMessage-ID: <{subject.replace(' ', '-')}@bench.test>\r\n\r\n"
            "pushed by IDLE\r\n").encode()


class ExistsProbe:
    """A session of our own in IDLE on INBOX; `wait_exists` returns when the server sent EXISTS."""

    def __init__(self, servers, user):
        self.session = login("127.0.0.1", servers.port, servers.ca_file, user, servers.password(user))
        self.session.simple("SELECT INBOX")
        self.tag = None
        self.seen_at = None
        self.thread = None

    def start(self):
        """Enters IDLE and starts reading until EXISTS in a thread."""
        self.tag = self.session.tag()
        self.session.sock.sendall(f"{self.tag} IDLE\r\n".encode())
        while not self.session.line().startswith(b"+"):
            pass
        self.seen_at = None
        self.thread = threading.Thread(target=self._read_until_exists, daemon=True)
        self.thread.start()

    def _read_until_exists(self):
        while b" EXISTS" not in self.session.line():
            pass
        self.seen_at = time.monotonic()

    def finish(self):
        """Waits for the EXISTS, ends the IDLE; returns when the EXISTS arrived."""
        self.thread.join(TIMEOUT_SECONDS)
        if self.thread.is_alive():
            raise BenchError("the probe's IDLE saw no EXISTS")
        self.session.sock.sendall(b"DONE\r\n")
        self.session.wait(self.tag)
        self.session.untagged.clear()
        return self.seen_at

    def close(self):
        self.session.simple("LOGOUT")


def measure(mount, servers, user, samples=SAMPLES):
    """Samples of (APPEND OK -> file visible, APPEND OK -> probe's EXISTS), in seconds."""
    if not wait_for(lambda: "active" in (mount.status().get("idle") or ""), 60):
        raise BenchError(f"the mount's IDLE is not active: {mount.status().get('idle')}")
    inbox = mount.account_dir / "inbox"
    appender = login("127.0.0.1", servers.port, servers.ca_file, user, servers.password(user))
    probe = ExistsProbe(servers, user)
    results = []
    try:
        for index in range(samples):
            time.sleep(PAUSE_SECONDS)
            subject = f"idle probe {os.getpid()} {index}"
            path = inbox / f"{DATE_IN_NAME} {SENDER} - {subject}.eml"
            os.listdir(inbox)
            probe.start()
            body = message(subject)
            tag = appender.tag()
            appender.sock.sendall(f"{tag} APPEND INBOX {{{len(body)}+}}\r\n".encode() + body + b"\r\n")
            status, line = appender.wait(tag)
            committed = time.monotonic()
            appender.untagged.clear()
            if status != "OK":
                raise BenchError(f"APPEND refused: {line!r}")
            if not wait_for(path.exists, TIMEOUT_SECONDS, POLL_SECONDS):
                raise BenchError(f"{path.name} did not appear in the mount within {TIMEOUT_SECONDS} s")
            visible = time.monotonic()
            pushed = probe.finish()
            results.append({"visible": visible - committed, "exists": pushed - committed})
    finally:
        probe.close()
        appender.simple("LOGOUT")
    return results


def wait_for(condition, timeout, interval=0.05):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(interval)
    return True


def percentile(values, fraction):
    """Nearest-rank percentile of VALUES (p99 of 21 samples is the slowest)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered) + 0.5) - 1))]


def summary(samples):
    """p50 and p99 of the total, the server's part and mailfs's part, in seconds."""
    totals = [sample["visible"] for sample in samples]
    server = [sample["exists"] for sample in samples]
    mailfs = [sample["visible"] - sample["exists"] for sample in samples]
    return {name: (statistics.median(values), percentile(values, 0.99))
            for name, values in (("total", totals), ("server", server), ("mailfs", mailfs))}
