"""bench/run's large-mailbox section (issue 10): `mailfs import` memory and time and cold mount
start-up at 200,000 messages, mailfs alone (the side-by-side runs are at bench/run's size).
Appends its table to bench/results.md; MAILFS_BENCH_SKIP_SCALE=1 skips it.

    python3 bench/lib/scale.py --binary PATH [--messages 200000] [--seed 1]
"""
import os
import shutil
import sys
from pathlib import Path

import corpus
import scaffold
import timing
from mount import Mount

MIB = 2**20
MB = 10**6


def measure(binary: Path, bench_dir: Path, messages: int, seed: int) -> list[str]:
    work = bench_dir / "work"
    tree, summary = corpus.ensure(bench_dir / "generate_corpus.py", work, messages, seed)
    store, mount_point = work / f"store-{messages}", work / "mnt"
    env = dict(timing.ENV, XDG_CONFIG_HOME=str(work / "xdg-config"), XDG_DATA_HOME=str(work / "xdg-data"))
    shutil.rmtree(store, ignore_errors=True)
    timing.drop_caches()
    imported = timing.run([str(binary), "import", "bench", str(tree), "--data-dir", str(store)], env=env)
    timing.drop_caches()
    with Mount(binary, mount_point, store, env, work / "mount-scale.log") as mount:
        cold = mount.start()
        memory = mount.memory_kib()
    shutil.rmtree(store, ignore_errors=True)
    peak = imported.max_rss_kib * 1024
    verdicts = [("mount start-up (exec to `.status` readable) <= 1 s cold", f"{cold * 1000:.0f} ms", cold <= 1.0),
                ("`mailfs import` peak memory <= 300 MB", f"{peak / MB:.1f} MB", peak <= 300 * MB)]
    return [
        f"## At {messages:,} messages", "",
        f"Written by `bench/lib/scale.py` (called by `bench/run`): corpus {summary}.", "",
        "| metric | mailfs |", "|---|---|",
        f"| `mailfs import` (cold source), wall time | {imported.seconds:.1f} s |",
        f"| `mailfs import` peak RSS (ru_maxrss) | {peak / MIB:.1f} MiB |",
        f"| mount start-up, cold (exec to `.status` readable) | {cold * 1000:.0f} ms |",
        f"| mount VmRSS right after start-up | {memory.get('VmRSS', 0) / 1024:.1f} MiB |", "",
        "| goal (issue 10) | measured | verdict |", "|---|---|---|",
    ] + [f"| {goal} | {measured} | **{'PASS' if ok else 'MISS'}** |" for goal, measured, ok in verdicts]


def main():
    parser = scaffold.parser(__doc__)
    parser.add_argument("--binary", type=Path, required=True)
    parser.add_argument("--messages", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    bench_dir = Path(__file__).resolve().parent.parent
    lines = measure(options.binary.resolve(), bench_dir, options.messages, options.seed)
    with open(bench_dir / "results.md", "a") as results:
        results.write("\n" + "\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    if os.geteuid() != 0:
        sys.exit("bench/lib/scale.py drops the page cache: run it as root")
    scaffold.run_until_interrupted(main, "mount")
