"""Warm `grep -r` through FUSE over /dev/fuse and over io_uring, side by side with the Maildir.

Called by bench/uring/run.sh, which builds what it names. Each round mounts every variant in
turn (the passthrough over the Maildir, mailfs over a store imported from it), reads the tree
once to warm both sides, then times `grep -r` on the mount and on the Maildir alternately;
ratios are of medians. Writes bench/uring/results.md.
"""
import argparse
import os
import statistics
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the sources
sys.path.insert(1, str(Path(__file__).resolve().parents[1] / "lib"))

import corpus  # noqa: E402
import machine  # noqa: E402
import scaffold  # noqa: E402
import timing  # noqa: E402
from mount import Mount  # noqa: E402
from step_passthrough import Passthrough  # noqa: E402

REPO = Path(__file__).resolve().parents[2]

ACCOUNT = "bench"
WORD = "quarterly"
ENABLE_URING = Path("/sys/module/fuse/parameters/enable_uring")
GREPS_PER_ROUND = 5


def arguments():
    parser = argparse.ArgumentParser(description=__doc__)
    for name in ("work", "mailfs", "mailfs-uring", "passthrough", "passthrough-uring"):
        parser.add_argument(f"--{name}", type=Path, required=True)
    parser.add_argument("--libfuse-uring", required=True, help="version of the io_uring libfuse")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--messages", type=int, default=50000)
    return parser.parse_args()


def grep(path):
    return timing.run(["grep", "-r", WORD, str(path)], allowed_exit=(0, 1), keep_output=False).seconds


def measure(tree, maildir):
    """Warm ratio of one mounted variant: medians of alternate greps on both sides."""
    grep(tree), grep(maildir)
    mounted, local = [], []
    for _ in range(GREPS_PER_ROUND):
        mounted.append(grep(tree))
        local.append(grep(maildir))
    return statistics.median(mounted), statistics.median(local)


def ring_threads(pid):
    """How many of the process's threads are libfuse's io_uring queue threads."""
    names = (Path(f"/proc/{pid}/task/{task}/comm").read_text().strip()
             for task in os.listdir(f"/proc/{pid}/task"))
    return sum(name.startswith("fuse-ring-") for name in names)


def main():
    options = arguments()
    work = options.work
    maildir, _ = corpus.ensure(REPO / "bench" / "generate_corpus.py", REPO / "bench" / "work",
                                     options.messages, 1)
    store, mount_point = work / f"store-{options.messages}", work / "mnt"
    env = dict(timing.ENV, XDG_CONFIG_HOME=str(work / "xdg-config"), XDG_DATA_HOME=str(work / "xdg-data"))
    if not (store / "mailfs.sqlite").exists():
        print(f"importing {maildir} ...", file=sys.stderr)
        timing.run([str(options.mailfs), "import", ACCOUNT, str(maildir), "--data-dir", str(store)], env=env)
    uring_env = dict(env, FUSE_URING_ENABLE="1")
    variants = [
        ("passthrough", "/dev/fuse (libfuse 3.14)", options.passthrough, env),
        ("passthrough", f"io_uring (libfuse {options.libfuse_uring})", options.passthrough_uring, uring_env),
        ("mailfs", "/dev/fuse (libfuse 3.14, mailfs's request loop)", options.mailfs, env),
        ("mailfs", f"io_uring (libfuse {options.libfuse_uring}, its ring threads)", options.mailfs_uring, uring_env),
    ]
    was_enabled = ENABLE_URING.read_text().strip()
    ENABLE_URING.write_text("Y")
    results = {index: [] for index in range(len(variants))}
    try:
        for round_number in range(options.rounds):
            for index, (system, transport, binary, variant_env) in enumerate(variants):
                if system == "passthrough":
                    with Passthrough(binary, maildir, mount_point, env=variant_env) as served:
                        rings = ring_threads(served.process.pid)
                        times = measure(mount_point, maildir)
                else:
                    with Mount(binary, mount_point, store, variant_env, work / "mount.log") as served:
                        served.start()
                        rings = ring_threads(served.process.pid)
                        times = measure(mount_point / ACCOUNT / "threads", maildir)
                if ("io_uring" in transport) != (rings > 0):
                    raise RuntimeError(f"{system} over {transport}: {rings} io_uring queue threads")
                results[index].append(times)
                print(f"round {round_number + 1}: {system} over {transport}: "
                      f"{times[0]:.3f} s against {times[1]:.3f} s", file=sys.stderr)
    finally:
        ENABLE_URING.write_text(was_enabled)
    report(options, variants, results, maildir.name)


def report(options, variants, results, maildir_name):
    lines = ["# FUSE over io_uring (bench/uring)", "",
             f"Warm `grep -r {WORD}` over the main bench's {options.messages:,} messages "
             f"(`bench/work/{maildir_name}`): through FUSE against the same Maildir on local disk, "
             f"medians of {GREPS_PER_ROUND} alternate runs per round, {options.rounds} rounds. "
             "What the rows mean: docs/DECISIONS.md, \"FUSE over io_uring, measured, not taken\".", "",
             "| file system | transport | FUSE, s (per round) | Maildir, s | ratio (per round) |",
             "|---|---|---|---|---|"]
    for index, (system, transport, _, _) in enumerate(variants):
        rounds = results[index]
        mounted = ", ".join(f"{m:.3f}" for m, _ in rounds)
        local = statistics.median(l for _, l in rounds)
        ratios = ", ".join(f"{m / l:.2f}x" for m, l in rounds)
        lines.append(f"| {system} | {transport} | {mounted} | {local:.3f} | {ratios} |")
    lines += ["", "## Machine", ""]
    lines += [f"- {label}: {value}" for label, value in machine.facts(options.work, str(options.mailfs))]
    scaffold.write_section("\n".join(lines) + "\n", REPO / "bench" / "uring" / "results.md")


if __name__ == "__main__":
    scaffold.run_until_interrupted(main, "mounts")
