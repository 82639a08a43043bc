#!/usr/bin/env python3
"""Sending benchmark of issue 5: a message copied into outbox/ of the mount, side by side with
Debian's msmtp submitting the same file to the same Postfix, and 100 messages queued at once.

    bench/send/run.py --binary PATH [--samples K] [--count N] [--bulk-rounds R] [--lived-in M]
                      [--no-trace]

Starts the test Dovecot and Postfix (.ci/servers), mounts alice's account with SMTP and
`undo_seconds = 0`, measures, prints a Markdown section and writes it to bench/send/results.md.
Unless --no-trace, one more message of each side is sent under strace, so the notes can say
where the time goes. Last, alice's Sent gets M more messages and mailfs sends one more batch
under perf: the throughput goal in a lived-in account. Needs root (the servers switch users;
inotify on Postfix's queue) and /dev/fuse.
"""
import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the sources
HERE = Path(__file__).resolve().parent
# This directory first, then the sync benchmark's servers and mount, the lazy benchmark's
# table helpers, then bench/lib.
sys.path[0:0] = [str(HERE), str(HERE.parent / "sync"), str(HERE.parent / "lazy")]
sys.path.append(str(HERE.parent / "lib"))

import lived_in  # noqa: E402
import machine  # noqa: E402
import send_notes  # noqa: E402
import send_table  # noqa: E402
import send_trace  # noqa: E402
from arrivals import Arrivals  # noqa: E402
from measure import say, run_until_interrupted  # noqa: E402
from msmtp_side import Msmtp  # noqa: E402
from outbox_side import OutboxMount  # noqa: E402
from rounds import Rounds  # noqa: E402
from seeded_mailbox import Mailbox  # noqa: E402
from servers import SCRIPTS, BenchError, Servers, install  # noqa: E402

USER, RECIPIENT = "alice", "bob"


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True, help="the mailfs binary (release build)")
    parser.add_argument("--samples", type=int, default=9, help="timed single messages of each side (default 9)")
    parser.add_argument("--count", type=int, default=100, help="messages of a throughput batch (default 100)")
    parser.add_argument("--bulk-rounds", type=int, default=3, help="throughput batches of each side (default 3)")
    parser.add_argument("--lived-in", type=int, default=2000,
                        help="one more mailfs batch with alice's Sent already holding this many messages "
                             "(default 2000; 0 skips it)")
    parser.add_argument("--no-trace", dest="trace", action="store_false",
                        help="skip the extra message sent under strace (where mailfs's time goes, in the notes)")
    parser.add_argument("--work", default="/tmp/mailfs-sendbench",
                        help="scratch directory, under /tmp so the servers can reach it "
                             "(default /tmp/mailfs-sendbench)")
    parser.add_argument("--keep", action="store_true", help="keep the store, mount dir and server state")
    parser.add_argument("--output", default=str(HERE / "results.md"), help="where to write the section")
    options = parser.parse_args()
    if options.samples < 7 or options.count < 2 or options.bulk_rounds < 1 or options.lived_in < 0:
        parser.error("--samples must be at least 7 (medians), --count at least 2, --bulk-rounds at least 1, "
                     "--lived-in at least 0")
    options.binary = os.path.abspath(options.binary)
    options.work = Path(options.work)
    options.user, options.recipient = USER, RECIPIENT
    return options


def prepare(servers):
    """The servers (and msmtp) installed, started from empty Maildirs; returns the watcher."""
    install()
    extra = subprocess.run([str(SCRIPTS / "install.sh"), "msmtp", "strace"], capture_output=True, text=True)
    if extra.returncode != 0:
        raise BenchError(f"installing msmtp failed:\n{extra.stderr}")
    servers.start()
    return Arrivals(servers.state_dir / "postfix" / "queue",
                    Path(servers.env["MAIL_DIR"]) / RECIPIENT / "Maildir")


def measure(options, servers, result):
    """Fills RESULT with every sample; returns the notes of the trace and of the profile (or None)."""
    result["count"] = options.count
    arrivals = prepare(servers)
    mount = OutboxMount(options.binary, servers, USER, options.work / "mount")
    try:
        mount.start()
        say("mounting and syncing ...")
        mount.wait_synced(timeout=120)
        rounds = Rounds(options, mount, Msmtp(servers, USER, options.work / "msmtp"), arrivals, result)
        rounds.per_message()
        rounds.throughput()
        trace = send_trace.where_time_goes(options, servers, mount, rounds) if options.trace else None
        profile = lived_in.measure(options, servers, mount, rounds, result) if options.lived_in else None
        check_end_state(servers, mount, arrivals, result)
        return trace, profile
    finally:
        mount.stop()


def check_end_state(servers, mount, arrivals, result):
    """Every message sent is in bob's INBOX exactly once, and outbox/ is empty."""
    sent = arrivals.counts()[1]
    result["inbox_count"] = Mailbox(servers, RECIPIENT).count()
    if result["inbox_count"] != sent:
        raise BenchError(f"Postfix accepted {sent} messages but bob's INBOX holds {result['inbox_count']}")
    left = mount.outbox_left()
    if left:
        raise BenchError(f"outbox/ still lists {left}{mount.log_problems()}")


def main():
    options = parse_arguments()
    if os.geteuid() != 0:
        sys.exit("run.py needs root: the test servers switch users")
    options.work.mkdir(parents=True, exist_ok=True)
    facts = machine.facts(options.work, options.binary)
    result, errors, explained = {}, [], (None, None)
    servers = Servers(options.work / "state")
    try:
        explained = measure(options, servers, result)
    except BenchError as error:
        errors.append(f"{str(error).splitlines()[0]} (details on stderr)")
        say(f"failed: {error}")
    finally:
        servers.stop()
        if not options.keep:
            servers.remove()
            shutil.rmtree(options.work / "letters", ignore_errors=True)
            (options.work / "perf.data").unlink(missing_ok=True)
            if not os.path.ismount(options.work / "mount" / "mnt"):
                shutil.rmtree(options.work / "mount", ignore_errors=True)
    text = send_table.markdown(result, send_notes.notes(options, servers, result, facts, *explained), errors)
    Path(options.output).write_text(text)
    print(text)
    return 1 if errors else 0


if __name__ == "__main__":
    run_until_interrupted(main, "mount and servers")
