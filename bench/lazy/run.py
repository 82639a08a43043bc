#!/usr/bin/env python3
"""Lazy-content benchmark of issues 4 and 10: a 20 MiB attachment read through the mount while it
downloads, side by side with python's imaplib fetching the same part from the same Dovecot, and
cached re-reads side by side with `cat` of the same bytes from local disk.

    bench/lazy/run.py --binary PATH [--samples K] [--size-mib N] [--no-profile]

Starts the test Dovecot (.ci/servers), appends one message with the attachment, mounts the
account with mailfs, measures, prints a Markdown section and writes it to bench/lazy/results.md
and in place of its section in bench/results.md (the rest of that file is left as it is).
Then two more cold reads are profiled with perf, so the notes say where mailfs's time goes.
Needs root (the servers switch users; dropping the page cache) and /dev/fuse.
"""
import os
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the sources
sys.path.insert(1, str(Path(__file__).resolve().parents[1] / "lib"))

import method  # noqa: E402
import payload  # noqa: E402
import phases  # noqa: E402
import raw_fetch  # noqa: E402
import scaffold  # noqa: E402
import section  # noqa: E402
from account_mount import ACCOUNT, AccountMount  # noqa: E402
from scaffold import say  # noqa: E402
from seeded_mailbox import Mailbox  # noqa: E402
from servers import install  # noqa: E402

HERE = Path(__file__).resolve().parent
USER = "alice"
MESSAGE_ID = "<lazy-bench-1@example.test>"


def parse_arguments():
    parser = scaffold.parser(__doc__)
    parser.add_argument("--binary", required=True, help="the mailfs binary (release build)")
    parser.add_argument("--samples", type=int, default=11, help="timed samples of each measurement (default 11)")
    parser.add_argument("--size-mib", type=int, default=20, help="attachment size in MiB (default 20)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random attachment bytes (default 1)")
    parser.add_argument("--no-profile", dest="profile", action="store_false",
                        help="skip profiling two extra cold reads with perf (where the time goes, in the notes)")
    parser.add_argument("--results", default=str(HERE.parent / "results.md"),
                        help="the benchmark's results file whose lazy-content section is replaced ('' for none)")
    scaffold.add_server_options(parser, "/tmp/mailfs-lazybench", HERE / "results.md")
    options = parser.parse_args()
    if options.samples < 5 or options.size_mib < 1:
        parser.error("--samples must be at least 5 (medians), --size-mib at least 1")
    options.binary = os.path.abspath(options.binary)
    options.user, options.account = USER, ACCOUNT
    options.attachment_name = payload.ATTACHMENT_NAME
    return options


def prepare(options, servers, work):
    """Servers up, the message appended; returns (payload, its UID)."""
    install()
    servers.start()
    say(f"appending a message with a {options.size_mib} MiB attachment ...")
    made = payload.make(options.size_mib << 20, options.seed)
    Mailbox(servers, USER).append([payload.write(made.message, work / "message.eml")])
    return made, raw_fetch.find_uid(servers, USER, MESSAGE_ID)


def measure(options, servers, result):
    """Fills RESULT with every sample; returns the profile note (or None)."""
    made, uid = prepare(options, servers, options.work)
    result["size"] = len(made.content)
    mount = AccountMount(options.binary, servers, USER, options.work / "mount")
    try:
        mount.launch()
        say("mounting and syncing ...")
        mount.wait_synced(timeout=300)
        run = phases.Phases(options, servers, mount, made, uid, result)
        run.first_reads()
        run.cached_reads(payload.write(made.content, options.work / "local-copy.bin"))
        return run.profile() if options.profile else None
    finally:
        mount.stop()


def main():
    options = parse_arguments()
    result = {"size": options.size_mib << 20}

    def markdown(profile, servers, facts, errors):
        return section.markdown(result, method.notes(options, servers, result, facts, profile), errors)
    return scaffold.run_section(options, lambda servers, _errors: measure(options, servers, result), markdown,
                                scratch=("message.eml", "local-copy.bin", "mount"), results=options.results)


if __name__ == "__main__":
    scaffold.run_until_interrupted(main, "mount and servers")
