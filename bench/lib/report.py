"""The goals of the issue judged against the rows, and bench/results.md."""
from pathlib import Path

import rows as table
from rows import Row

GOAL_MESSAGES = 50_000
MEMORY_LIMIT_BYTES = 150 * 10**6


def by_key(results: list) -> dict:
    return {row.key: row for row in results}


def goals(results: list, messages: int) -> list:
    """(goal, measured, verdict) for each goal of the issue; judged on the warm numbers where
    the goal compares with the Maildir, and on the cold start for start-up (the worse of both)."""
    rows = by_key(results)
    verdicts = []
    for key, name in (("ls-l", "`ls -l` of the big folder (10,000 messages at 50,000) within 2x of the Maildir"),
                      ("grep", "`grep -r` over the account within 2x of the Maildir")):
        warm, cold = rows[f"{key}/warm"], rows[f"{key}/cold"]
        measured = f"warm {table.show_ratio(warm.ratio)}, cold {table.show_ratio(cold.ratio)}"
        verdicts.append((name, measured, verdict(warm.ratio is not None and warm.ratio <= 2.0)))
    cold, warm = rows["startup/cold"], rows["startup/warm"]
    size_note = "" if messages == GOAL_MESSAGES else f" (measured with {messages:,} messages, not 50,000)"
    verdicts.append(("mount start-up under 1 s for 50,000 messages",
                     f"cold {table.show(cold.mailfs, 's')}, warm {table.show(warm.mailfs, 's')}{size_note}",
                     verdict(max(cold.mailfs, warm.mailfs) < 1.0)))
    peak = rows["hwm/after the runs"].mailfs * 2**20
    verdicts.append(("mount memory under 150 MB (VmHWM, 1 MB = 10^6 bytes)",
                     f"VmHWM {peak / 10**6:.1f} MB, VmRSS {rows['rss/after the runs'].mailfs * 2**20 / 10**6:.1f} MB",
                     verdict(peak < MEMORY_LIMIT_BYTES)))
    return verdicts


def verdict(passed: bool) -> str:
    return "PASS" if passed else "MISS"


def goals_text(verdicts: list) -> str:
    return "\n".join(f"{mark}  {goal}: {measured}" for goal, measured, mark in verdicts)


def write_markdown(path: Path, results: list, verdicts: list, machine: list, corpus: list, notes: list,
                   method: list):
    lines = ["# mailfs benchmark", "",
             "Written by `bench/run`; rerun it to refresh. Ratio = mailfs / Maildir (above 1: mailfs is slower "
             "or bigger). \"cold\" = page cache, dentries and inodes dropped right before the command "
             "(mailfs keeps its own in-process caches); \"warm\" = repeated with everything cached.", "",
             "## Results", "", table.markdown(results), "",
             "## Goals (from the issue)", "", "| goal | measured | verdict |", "|---|---|---|"]
    lines += [f"| {goal} | {measured} | **{mark}** |" for goal, measured, mark in verdicts]
    lines += ["", "## Machine", ""] + [f"- {label}: {value}" for label, value in machine]
    lines += ["", "## Corpus", ""] + [f"- {line}" for line in corpus]
    lines += ["", "## Method", ""] + [f"- {line}" for line in method]
    lines += ["", "## Observations from this run", ""] + [f"- {line}" for line in notes]
    path.write_text("\n".join(lines) + "\n")
