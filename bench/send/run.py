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
import os
import subprocess
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the sources
sys.path.insert(1, str(Path(__file__).resolve().parents[1] / "lib"))

import lived_in  # noqa: E402
import scaffold  # noqa: E402
import send_notes  # noqa: E402
import send_table  # noqa: E402
import send_trace  # noqa: E402
from arrivals import Arrivals  # noqa: E402
from msmtp_side import Msmtp  # noqa: E402
from outbox_side import OutboxMount  # noqa: E402
from rounds import Rounds  # noqa: E402
from scaffold import say  # noqa: E402
from seeded_mailbox import Mailbox  # noqa: E402
from servers import SCRIPTS, BenchError, install  # noqa: E402

HERE = Path(__file__).resolve().parent
USER, RECIPIENT = "alice", "bob"


def parse_arguments():
    parser = scaffold.parser(__doc__)
    parser.add_argument("--binary", required=True, help="the mailfs binary (release build)")
    parser.add_argument("--samples", type=int, default=9, help="timed single messages of each side (default 9)")
    parser.add_argument("--count", type=int, default=100, help="messages of a throughput batch (default 100)")
    parser.add_argument("--bulk-rounds", type=int, default=3, help="throughput batches of each side (default 3)")
    parser.add_argument("--lived-in", type=int, default=2000,
                        help="one more mailfs batch with alice's Sent already holding this many messages "
                             "(default 2000; 0 skips it)")
    parser.add_argument("--no-trace", dest="trace", action="store_false",
                        help="skip the extra message sent under strace (where mailfs's time goes, in the notes)")
    scaffold.add_server_options(parser, "/tmp/mailfs-sendbench", HERE / "results.md")
    options = parser.parse_args()
    if options.samples < 7 or options.count < 2 or options.bulk_rounds < 1 or options.lived_in < 0:
        parser.error("--samples must be at least 7 (medians), --count at least 2, --bulk-rounds at least 1, "
                     "--lived-in at least 0")
    options.binary = os.path.abspath(options.binary)
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
        mount.launch()
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
    result = {}

    def markdown(explained, servers, facts, errors):
        trace, profile = explained or (None, None)
        return send_table.markdown(result, send_notes.notes(options, servers, result, facts, trace, profile), errors)
    return scaffold.run_section(options, lambda servers, _errors: measure(options, servers, result), markdown,
                                scratch=("letters", "perf.data", "mount"))


if __name__ == "__main__":
    scaffold.run_until_interrupted(main, "mount and servers")
