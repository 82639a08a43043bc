#!/usr/bin/env python3
"""Sync benchmark of issue 3: mailfs's IMAP sync against mbsync, same Dovecot, same mailbox.

    bench/sync/run.py [--messages N ...] [--binary PATH] [--initial-runs R] [--repeat K] [--idle-samples S] [--no-warmup]

Starts the test Dovecot (.ci/servers), seeds INBOXes with bench/generate_corpus.py messages,
measures initial sync (wall time, peak RSS) and incremental syncs (nothing new, 10 new) of
mailfs (through its mount) and mbsync (into a Maildir) and how soon mail another client
appends shows in the mount (IDLE), prints a Markdown section and writes
it to bench/sync/results.md. Needs root (the servers switch users) and /dev/fuse.
"""
import os
import platform
import subprocess
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the sources
sys.path.insert(1, str(Path(__file__).resolve().parents[1] / "lib"))

import scaffold  # noqa: E402
from measure import SizeRun, idle_baseline  # noqa: E402
from report import markdown  # noqa: E402
from scaffold import say  # noqa: E402
from servers import REPO, BenchError, install  # noqa: E402
import notes  # noqa: E402

HERE = Path(__file__).resolve().parent
# One user per mailbox size, so every size starts from an empty INBOX; carol stays empty
# for the idle baseline.
SIZE_USERS = ["alice", "bob"]
IDLE_USER = "carol"


def parse_arguments():
    parser = scaffold.parser(__doc__)
    parser.add_argument("--messages", type=int, action="append",
                        help="mailbox size; give it twice for two sizes (default: 1000 and 10000)")
    parser.add_argument("--binary", help="mailfs binary (default: build it in --scratch-path)")
    parser.add_argument("--scratch-path", default=".build-syncbench",
                        help="swift build directory when --binary is not given (default .build-syncbench)")
    parser.add_argument("--seed", type=int, default=1, help="corpus seed (default 1)")
    parser.add_argument("--initial-runs", type=int, default=3, help="timed initial syncs of each client (default 3)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each incremental sync (default 3)")
    parser.add_argument("--idle-samples", type=int, default=21,
                        help="messages appended one at a time to time IDLE pushes (default 21; 0 skips it)")
    parser.add_argument("--no-warmup", action="store_true", help="skip the untimed warm-up initial syncs")
    scaffold.add_server_options(parser, "/tmp/mailfs-syncbench", HERE / "results.md")
    options = parser.parse_args()
    options.load_at_start = " ".join(f"{value:.2f}" for value in os.getloadavg())
    options.messages = sorted(set(options.messages or [1000, 10000]))
    if len(options.messages) > len(SIZE_USERS) or min(options.messages) < 1:
        parser.error(f"--messages: 1 to {len(SIZE_USERS)} sizes, each at least 1")
    if options.repeat < 1 or options.initial_runs < 1 or options.idle_samples < 0:
        parser.error("--repeat and --initial-runs must be at least 1, --idle-samples at least 0")
    return options


def build(scratch_path):
    """Builds the release binary; returns its path."""
    scratch = Path(scratch_path) if os.path.isabs(scratch_path) else REPO / scratch_path
    scratch.mkdir(parents=True, exist_ok=True)
    log = scratch / "syncbench-build.log"
    say(f"building mailfs (release) in {scratch} ...")
    with open(log, "wb") as output:
        result = subprocess.run(["swift", "build", "-c", "release", "--product", "mailfs", "--scratch-path", str(scratch)],
                                cwd=REPO, stdout=output, stderr=subprocess.STDOUT)
    if result.returncode != 0:
        raise BenchError(f"build failed: see {log}")
    return str(scratch / "release" / "mailfs")


def measure(options, servers, errors):
    """The idle baseline, then each mailbox size; a size that fails is listed and the next one runs.
    Returns (the sizes' results, the idle baseline)."""
    install()
    options.binary = os.path.abspath(options.binary) if options.binary else build(options.scratch_path)
    servers.start()
    say("idle baseline: mount of an account with no mail")
    idle = idle_baseline(options.binary, servers, IDLE_USER, options.work)
    results = []
    for user, count in zip(SIZE_USERS, options.messages):
        try:
            results.append(SizeRun(options, servers, user, count).run())
        except BenchError as error:
            errors.append(f"{count:,} messages: {str(error).splitlines()[0]} (details on stderr)")
            say(f"[{count:,}] failed: {error}")
    return results, idle


def main():
    options = parse_arguments()

    def section(measured, servers, _facts, errors):
        results, idle = measured or ([], None)
        return markdown(results, idle, notes.method(options, servers, results, idle, platform.release()), errors)
    return scaffold.run_section(options, lambda servers, errors: measure(options, servers, errors), section)


if __name__ == "__main__":
    scaffold.run_until_interrupted(main, "mounts and servers")
