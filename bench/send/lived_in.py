"""The throughput batch once more in a lived-in account: alice's Sent already holding N
messages. Every Sent copy mailfs saves is followed by a sync of that folder, so the account's
size may weigh on each message; the empty account of the main rounds cannot show that.

The N messages are appended over IMAP (MULTIAPPEND, bench/lib/bulk_append.py), then the mount
syncs them (`sync` written to `.control`, waiting for `.status` to count them) before the batch.
"""
import time

import letters
import send_profile
from bulk_append import append_all, login
from scaffold import say
from servers import BenchError

SYNC_TIMEOUT = 900
POLL_SECONDS = 0.5


def measure(options, servers, mount, rounds, result):
    """Fills result["mailfs_lived"]; returns the profile note of the batch."""
    count = options.lived_in
    say(f"lived-in account: appending {count} messages to {options.user}'s Sent and syncing them ...")
    before = mount.status()["messages"]
    prefill_sent(servers, options.user, letters.batch(options.work / "letters" / "old-sent", "old-sent", count))
    sync_until(mount, before + count)
    say(f"lived-in account: {options.count} messages into outbox/ ...")
    sample, profile = send_profile.profiled(mount, options.work, lambda: rounds.mailfs_batch("lived-mailfs"))
    result["mailfs_lived"], result["lived_in"] = [sample], count
    return profile


def prefill_sent(servers, user, paths):
    try:
        session = login("127.0.0.1", servers.port, servers.ca_file, user, servers.password(user))
        append_all(session, "Sent", [str(path) for path in paths])
        session.simple("LOGOUT")
    except (RuntimeError, OSError) as error:
        raise BenchError(f"appending to {user}'s Sent failed: {error}") from error


def sync_until(mount, total):
    """Asks the mount to sync and waits until `.status` counts TOTAL messages, idle."""
    with open(mount.account_dir / ".control", "w") as control:
        control.write("sync\n")
    deadline = time.monotonic() + SYNC_TIMEOUT
    while True:
        status = mount.status()
        if status["messages"] >= total and status.get("phase") == "idle":
            return
        if time.monotonic() > deadline:
            raise BenchError(f"the mount counted {status['messages']} of {total} messages after {SYNC_TIMEOUT} s")
        time.sleep(POLL_SECONDS)
