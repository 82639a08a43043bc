"""bench/run's engine: mailfs against a plain Maildir holding the same messages, side by side.

Called by bench/run after it installed packages and built mailfs; see `bench/run --help`.
"""
import argparse
import fcntl
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import compare
import corpus
import machine
import report
import rows
import scaffold
import step_halt
import step_import
import step_mount
import step_passthrough
import step_tree
import timing
from compare import Setup
from scaffold import say

ACCOUNT = "bench"


def arguments():
    parser = argparse.ArgumentParser(prog="bench/run", description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=50_000, help="corpus size (default 50000)")
    parser.add_argument("--seed", type=int, default=1, help="corpus and sample seed (default 1)")
    parser.add_argument("--runs", type=int, default=5, help="warm repetitions per metric (default 5)")
    parser.add_argument("--samples", type=int, default=300, help="messages for the cat percentiles (default 300)")
    parser.add_argument("--word", default="quarterly", help="what grep -r looks for (default quarterly)")
    parser.add_argument("--maildir", type=Path, help="measure this existing Maildir++ tree (with a .Big folder) "
                        "instead of a generated one; --messages is then ignored")
    parser.add_argument("--binary", type=Path, required=True, help=argparse.SUPPRESS)
    parser.add_argument("--passthrough", type=Path, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.messages < 100 or options.runs < 1 or options.samples < 1:
        parser.error("--messages must be at least 100, --runs and --samples at least 1")
    return options


def setup_for(options, bench_dir: Path, tree: Path) -> Setup:
    work = bench_dir / "work"
    (work / "mount.log").unlink(missing_ok=True)
    config_home = work / "xdg-config"          # empty: mailfs reads no config file
    shutil.rmtree(config_home, ignore_errors=True)
    config_home.mkdir(parents=True)
    env = dict(timing.ENV, XDG_CONFIG_HOME=str(config_home), XDG_DATA_HOME=str(work / "xdg-data"))
    return Setup(binary=options.binary.resolve(), corpus=tree, copy=work / "copy", store=work / "store",
                 mount_point=work / "mnt", account=ACCOUNT, env=env, runs=options.runs, samples=options.samples,
                 seed=options.seed, word=options.word, cold=timing.can_drop_caches(),
                 notmuch=shutil.which("notmuch") is not None)


def hold_work_lock(work: Path):
    """One bench/run at a time: two would delete each other's store, copy and mount.
    The lock lives as long as the returned file stays open (the whole run)."""
    lock = open(work / ".lock", "a+")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        say("== another bench/run is using bench/work: waiting for it to finish")
        fcntl.flock(lock, fcntl.LOCK_EX)
    return lock


def release_stale_mount(mount_point: Path):
    """A previous run killed with SIGKILL may have left its mount: take it down first."""
    if os.path.ismount(mount_point):
        subprocess.run(["fusermount3", "-uz", str(mount_point)], capture_output=True)


def measure(setup: Setup, messages: int, passthrough: Path | None) -> list:
    say("== import")
    results = step_import.measure(setup, messages)
    say("== mount start-up")
    startup, mount = step_mount.measure_startup(setup, messages)
    with mount:
        results += startup + step_mount.memory_rows(mount, "after start-up")
        for name, step in (("conversation.txt", step_tree.measure_conversation),
                           ("ls, find, grep", step_tree.measure_listings), ("cat", step_tree.measure_cat)):
            say(f"== {name}")
            results += step(setup)
            step_mount.note_memory(setup, mount, name)
        results += step_mount.memory_rows(mount, "after the runs")
        time.sleep(step_mount.IDLE_SECONDS)
        results += step_mount.memory_rows(mount, step_mount.IDLE_WHEN)
        if setup.cold and step_halt.applies():
            say("== grep, find with the guest polling before it halts")
            results += step_halt.measure(setup)
    if passthrough:
        say("== C passthrough FUSE baseline")
        results += step_passthrough.measure(setup, passthrough)
    return results


def method_notes(setup: Setup) -> list:
    notes = [
        "Every number is the wall time of a child process (perf_counter from before fork to after wait4), "
        "so both sides pay the same exec cost; output goes to a pipe that is read to the end (GNU grep "
        "would stop at its first match if writing to /dev/null). LC_ALL=C on both sides.",
        "The Maildir side is the generated Maildir++ tree on the same local disk the mailfs store is on.",
        f"Warm numbers are the median of {setup.runs} runs, mailfs and Maildir alternating "
        f"({setup.runs * compare.SHORT_RUNS_FACTOR} for a command under {compare.SHORT * 1000:.0f} ms cold: "
        "`ls` of the big folder).",
        "Import: `cp -a` of the Maildir is the plain way to have the mail; each import starts with the page "
        "cache dropped and includes a `sync` afterwards. The store is created fresh each run. "
        f"{step_import.ROUNDS} rounds of `cp -a` then `mailfs import`; the medians are shown (the rounds are in "
        "the observations).",
        "Mount start-up: `mailfs mount` exec until `.status` reads through the mount point (polled every ms).",
        "ls compares the mailfs folder `Big` with the Maildir's `.Big/cur`; find walks the whole account "
        "(mailfs also has threads/, attachments/, archive/) against the whole Maildir++ tree; grep -r "
        "reads every message once on each side (mailfs: `threads/`, which holds each message once).",
        "conversation.txt: `cat` of the conversation of the thread closest to 100 messages (at least 100 "
        "where there is one), first read since the mount started and with the page cache dropped, so its "
        "rendering is in the time; the Maildir side is one `cat` of the same messages' files, cold. It runs "
        "before the walks, which render every conversation (`grep -r` over threads/ reads each "
        "conversation.txt as well as each message).",
        "cat: the same randomly drawn messages (matched by Message-ID through the store) on both sides; "
        "cold = first read after a cache drop (one drop before each side's cold pass), warm = a read after "
        "the file was read once since the last drop (the mailfs side gets one untimed pass after the drop "
        "made for the Maildir's cold pass); in-process = the read after that.",
        "Memory: VmRSS/VmHWM from /proc/PID/status of the `mailfs mount` process.",
    ]
    if setup.cold and step_halt.applies():
        notes.append(f"Rows ending \"{step_halt.LABEL}\": grep -r and find again, both sides, with "
                     f"{step_halt.HALT_POLL} set to {step_halt.DRIVER_DEFAULT_NS} (the cpuidle-haltpoll driver's "
                     "default) and restored right after. This machine halts an idle vCPU at once, so every FUSE "
                     "round trip pays a host exit to wake its caller; these rows show the ratios without that.")
    if not setup.cold:
        notes.append("The page cache could NOT be dropped (not root?): the \"cold\" numbers are first runs only.")
    if setup.notmuch:
        notes.append("notmuch new runs on the `cp -a` copy (it writes .notmuch/ into the tree), cache dropped first.")
    load = os.getloadavg()
    notes.append(f"Load average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores.")
    return notes


def corpus_for(options, bench_dir: Path) -> tuple[Path, str]:
    """The Maildir++ tree to measure (given, or generated once and reused) and its description."""
    if not options.maildir:
        return corpus.ensure(bench_dir / "generate_corpus.py", bench_dir / "work", options.messages, options.seed)
    tree = options.maildir.resolve()
    if not (tree / ".Big" / "cur").is_dir():
        sys.exit(f"bench: {tree} has no .Big/cur folder to list")
    options.messages = len(corpus.message_files(tree))
    return tree, f"existing tree {tree}"


def main():
    options = arguments()
    bench_dir = Path(__file__).resolve().parent.parent
    (bench_dir / "work").mkdir(exist_ok=True)
    lock = hold_work_lock(bench_dir / "work")
    release_stale_mount(bench_dir / "work" / "mnt")
    machine_facts = machine.facts(bench_dir / "work", str(options.binary))
    tree, summary = corpus_for(options, bench_dir)
    setup = setup_for(options, bench_dir, tree)
    try:
        results = measure(setup, options.messages, options.passthrough)
    except (timing.CommandFailed, RuntimeError) as failure:
        sys.exit(f"bench: {failure}")
    finally:
        release_stale_mount(setup.mount_point)
        shutil.rmtree(setup.copy, ignore_errors=True)
    verdicts = report.goals(results, options.messages)
    corpus_lines = [summary if not options.maildir else f"{options.messages:,} messages: {summary}",
                    f"seed {options.seed} (corpus generator and the cat sample draw); grep word: `{options.word}`; "
                    f"cat samples: {options.samples}"]
    written = bench_dir / "results.md"
    report.write_markdown(written, results, verdicts, machine_facts, corpus_lines, setup.notes, method_notes(setup),
                          setup.traces)
    print(rows.plain_text(results) + "\n\n" + report.goals_text(verdicts))
    print(f"\nwritten: {written}", file=sys.stderr)
    lock.close()


if __name__ == "__main__":
    scaffold.run_until_interrupted(main, "mount")
