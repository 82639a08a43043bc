#!/usr/bin/env python3
"""Rendering benchmark of issue 45: messages rendered per second on one core over the
generated bench corpus (`mailfs show` of a directory holding its 50,000 messages), and the
HTML messages of the corpora and the demo mailbox rendered by mailfs and by `w3m -dump`
side by side (time, and the words each shows that the other does not).

    bench/render/run.py --binary PATH [--messages 50000] [--seed 1] [--runs 3]

Generates (or reuses) bench/generate_corpus.py's corpus under bench/work/, links its
messages as .eml files into one directory, installs w3m when missing (.ci/servers/install.sh,
as the other benchmarks install their peers), prints a Markdown section and writes it to
bench/render/results.md. Page cache warm; every mailfs run pinned to CPU 0 (taskset).
"""
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the sources
sys.path.insert(1, str(Path(__file__).resolve().parents[1] / "lib"))

import corpus  # noqa: E402
import figures  # noqa: E402
import html_messages  # noqa: E402
import machine  # noqa: E402
import scaffold  # noqa: E402

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
GOAL_RATE = 5000          # messages per second on one core
WORD = re.compile(r"[^\W\d_]{5,}")


def parse_arguments():
    parser = scaffold.parser(__doc__)
    parser.add_argument("--binary", type=Path, required=True, help="the mailfs binary (a release build)")
    parser.add_argument("--messages", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--corpora", type=Path, default=REPO.parent / "shared" / "corpora")
    parser.add_argument("--output", type=Path, default=HERE / "results.md")
    options = parser.parse_args()
    options.binary = options.binary.resolve()
    return options


def timed(argv, stdout=subprocess.DEVNULL):
    """(wall seconds, CPU seconds of the child, completed process)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(argv, stdout=stdout, stderr=subprocess.PIPE)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        raise RuntimeError(f"{argv[0]} failed: {done.stderr.decode(errors='replace')[-1000:]}")
    return wall, cpu, done


def linked_messages(tree: Path, work: Path) -> tuple[Path, int]:
    """A directory of NNNNNN.eml symbolic links to every message of the tree (reused)."""
    files = corpus.message_files(tree)
    directory = work / f"render-eml-{tree.name}"
    if not directory.is_dir() or len(os.listdir(directory)) != len(files):
        shutil.rmtree(directory, ignore_errors=True)
        directory.mkdir(parents=True)
        for index, path in enumerate(files):
            (directory / f"{index:06d}.eml").symlink_to(path)
    return directory, len(files)


def throughput(binary: Path, directory: Path, count: int, runs: int) -> dict:
    pinned = ["taskset", "-c", "0"] if shutil.which("taskset") else []
    timed(pinned + [str(binary), "show", str(directory)])   # warms the page cache
    samples = [timed(pinned + [str(binary), "show", str(directory)])[:2] for _ in range(runs)]
    wall = statistics.median(sample[0] for sample in samples)
    cpu = statistics.median(sample[1] for sample in samples)
    size = sum(os.path.getsize(directory / name) for name in os.listdir(directory))
    return {"messages": count, "bytes": size, "wall": wall, "cpu": cpu, "rate": count / cpu}


def body_text(rendering: str) -> str:
    """A rendering without its heading (up to the first blank line) and its link list, so the
    words compared are the message's text on both sides."""
    body = rendering.partition("\n\n")[2]
    return re.sub(r"\n\nLinks:\n(\[\d+\] [^\n]*\n)+", "\n", body)


def conversation(binary: Path, messages: Path, work: Path, runs: int) -> dict:
    """`mailfs show` of a thread directory of 100 messages (the corpus's first 100): the
    conversation rendered whole, as conversation.txt will be, process start-up included."""
    thread = work / "render-threads" / "threads" / "100 messages"
    shutil.rmtree(thread.parent.parent, ignore_errors=True)
    thread.mkdir(parents=True)
    for name in sorted(os.listdir(messages))[:100]:
        (thread / name).symlink_to(messages / name)
    samples = [timed([str(binary), "show", str(thread)], stdout=subprocess.PIPE) for _ in range(runs + 1)][1:]
    return {"wall": statistics.median(sample[0] for sample in samples), "bytes": len(samples[0][2].stdout)}


def words(text: str) -> set:
    return set(WORD.findall(text))


def html_comparison(binary: Path, corpora: Path, work: Path) -> dict:
    directory = work / "render-html"
    shutil.rmtree(directory, ignore_errors=True)
    count = html_messages.write(corpora, REPO / "demo" / "mail", directory)
    names = [f"{index:04d}" for index in range(1, count + 1)]
    mailfs_wall = w3m_wall = 0.0
    only_w3m, only_mailfs, examples = [], [], []
    mailfs_bytes = w3m_bytes = 0
    for name in names:
        wall, _, mine = timed([str(binary), "show", str(directory / f"{name}.eml")], stdout=subprocess.PIPE)
        mailfs_wall += wall
        wall, _, theirs = timed(["w3m", "-dump", "-T", "text/html", "-I", "UTF-8", "-O", "UTF-8", "-cols", "80",
                                 str(directory / f"{name}.html")], stdout=subprocess.PIPE)
        w3m_wall += wall
        mine_text, theirs_text = body_text(mine.stdout.decode(errors="replace")), theirs.stdout.decode(errors="replace")
        (directory / f"{name}.mailfs.txt").write_text(mine_text)
        (directory / f"{name}.w3m.txt").write_text(theirs_text)
        mailfs_bytes += len(mine.stdout)
        w3m_bytes += len(theirs.stdout)
        missing = sorted(word for word in words(theirs_text) if word not in mine_text)
        extra = sorted(word for word in words(mine_text) if word not in theirs_text)
        only_w3m.append(len(missing))
        only_mailfs.append(len(extra))
        if missing:
            source = (directory / f"{name}.source").read_text().strip()
            examples.append(f"{source}: {', '.join(missing[:6])}")
    _, cpu_all, _ = timed([str(binary), "show", str(directory)])
    return {"messages": count, "mailfs_wall": mailfs_wall, "w3m_wall": w3m_wall, "mailfs_cpu_all": cpu_all,
            "mailfs_bytes": mailfs_bytes, "w3m_bytes": w3m_bytes, "only_w3m": only_w3m, "only_mailfs": only_mailfs,
            "examples": examples}


def markdown(facts, summary, rate, thread, html) -> str:
    lines = ["# Rendering: messages to text (issue 45)", "",
             "`bench/render/run.py`; page cache warm, mailfs pinned to one core (`taskset -c 0`).", ""]
    lines += [f"- {label}: {value}" for label, value in facts] + [f"- corpus: {summary}", ""]
    verdict = "met" if rate["rate"] >= GOAL_RATE else "NOT met"
    lines += ["## Throughput on one core", "",
              figures.table(["messages", "MB", "wall", "CPU", "messages/s (CPU)", f"goal ≥ {GOAL_RATE}/s"],
                            [[f"{rate['messages']:,}", f"{rate['bytes'] / 2**20:,.0f}", f"{rate['wall']:.2f} s",
                              f"{rate['cpu']:.2f} s", f"{rate['rate']:,.0f}", verdict]]),
              "",
              "One `mailfs show DIR` process renders every message of the corpus (read, parse, render, "
              "write to /dev/null), median of the runs; the rate counts CPU time (user + system) of the "
              "process, its start-up included.", "",
              f"A 100-message thread directory as one conversation (`mailfs show threads/…/`, process "
              f"start-up included): {thread['wall'] * 1000:.0f} ms wall, median of the runs, "
              f"{thread['bytes'] / 1024:,.0f} KiB of text.", ""]
    count = max(html["messages"], 1)
    lines += ["## HTML messages against `w3m -dump`", "",
              figures.table(["side", "messages", "total time", "per message", "output"],
                            [["mailfs show (one process per message)", str(html["messages"]),
                              f"{html['mailfs_wall']:.2f} s", f"{html['mailfs_wall'] / count * 1000:.1f} ms",
                              f"{html['mailfs_bytes'] / 1024:,.0f} KiB"],
                             ["mailfs show DIR (all in one process, CPU)", str(html["messages"]),
                              f"{html['mailfs_cpu_all']:.2f} s", f"{html['mailfs_cpu_all'] / count * 1000:.2f} ms", ""],
                             ["w3m -dump -cols 80 (decoded HTML)", str(html["messages"]),
                              f"{html['w3m_wall']:.2f} s", f"{html['w3m_wall'] / count * 1000:.1f} ms",
                              f"{html['w3m_bytes'] / 1024:,.0f} KiB"]]),
              "",
              "Words of 5+ letters in the text (mailfs's heading and link list left out; `mailfs.txt` and "
              "`w3m.txt` of each message are kept in bench/work/render-html/): "
              f"w3m shows that mailfs does not: {sum(html['only_w3m'])} in "
              f"{sum(1 for n in html['only_w3m'] if n)} of {html['messages']} messages; words mailfs shows "
              f"that w3m does not: {sum(html['only_mailfs'])} in {sum(1 for n in html['only_mailfs'] if n)} messages.",
              ""]
    if html["examples"]:
        lines += ["Messages where w3m shows words mailfs does not (first words):", ""]
        lines += [f"- {example}" for example in html["examples"][:20]] + [""]
    return "\n".join(lines)


def main():
    options = parse_arguments()
    work = HERE.parent / "work"
    work.mkdir(parents=True, exist_ok=True)
    if shutil.which("w3m") is None:
        installed = subprocess.run([str(REPO / ".ci" / "servers" / "install.sh"), "w3m"], capture_output=True, text=True)
        if installed.returncode != 0:
            sys.exit(f"cannot install w3m: {installed.stderr[-2000:]}")
    tree, summary = corpus.ensure(HERE.parent / "generate_corpus.py", work, options.messages, options.seed)
    directory, count = linked_messages(tree, work)
    scaffold.say(f"rendering {count} messages, {options.runs} runs ...")
    rate = throughput(options.binary, directory, count, options.runs)
    thread = conversation(options.binary, directory, work, options.runs)
    scaffold.say("HTML messages: mailfs show and w3m -dump ...")
    html = html_comparison(options.binary, options.corpora, work)
    text = markdown(machine.facts(work, options.binary), summary, rate, thread, html) + "\n" + (HERE / "notes.md").read_text()
    print(text)
    options.output.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    scaffold.run_until_interrupted(main, "the render benchmark")
