"""The goals of the issue judged against the rows, and bench/results.md."""
from pathlib import Path

import fuse_requests
import rows as table
import step_halt
from step_mount import IDLE_WHEN
from rows import Row

GOAL_MESSAGES = 50_000
MB = 10**6
MIB = 2**20


def by_key(results: list) -> dict:
    return {row.key: row for row in results}


def ratio_goal(rows: dict, key: str, name: str, warm_limit: float, cold_limit: float) -> tuple:
    """A goal on mailfs / Maildir, judged on both the warm and the cold row."""
    warm, cold = rows[f"{key}/warm"], rows[f"{key}/cold"]
    measured = f"warm {table.show_ratio(warm.ratio)}, cold {table.show_ratio(cold.ratio)}"
    passed = all(row.ratio is not None and row.ratio <= limit
                 for row, limit in ((warm, warm_limit), (cold, cold_limit)))
    return name, measured, verdict(passed)


def goals(results: list, messages: int) -> list:
    """(goal, measured, verdict) for each goal of issue 10 that this run measures."""
    rows = by_key(results)
    size = "" if messages == GOAL_MESSAGES else f" (measured at {messages:,} messages, not 50,000)"
    verdicts = [
        ratio_goal(rows, "grep", f"`grep -r WORD threads/` (messages and conversation.txt) <= 2x warm, <= 2x cold{size}",
                   2.0, 2.0),
        ratio_goal(rows, "ls-l", f"`ls -l` of the 10,000 folder <= 1.5x warm and cold{size}", 1.5, 1.5),
        ratio_goal(rows, "ls-f", f"`ls -f` of the 10,000 folder <= 1.2x{size}", 1.2, 1.2),
        ratio_goal(rows, "find-entry", f"`find` <= 3x per entry{size}", 3.0, 3.0),
    ]
    for label in ("p50", "p99"):
        verdicts.append(ratio_goal(rows, f"cat-{label}", f"`cat` of one message {label} <= 1.3x{size}", 1.3, 1.3))
    read = rows["read-p50/warm"].mailfs
    verdicts.append((f"in-process open+read+close p50 <= 100 µs{size}", table.show(read, "s"),
                     verdict(read <= 100e-6)))
    cold = rows["startup/cold"].mailfs
    verdicts.append((f"mount start-up (exec to `.status` readable) <= 300 ms cold{size}",
                     f"cold {table.show(cold, 's')}, warm {table.show(rows['startup/warm'].mailfs, 's')}",
                     verdict(cold <= 0.3)))
    if "conversation/cold" in rows:
        first = rows["conversation/cold"].mailfs
        verdicts.append((f"`cat` of a 100-message thread's conversation.txt <= 20 ms the first time{size}",
                         table.show(first, "s"), verdict(first <= 0.020)))
    busy = rows["rss/after the runs"].mailfs * MIB
    rss = rows[f"rss/{IDLE_WHEN}"].mailfs * MIB
    verdicts.append((f"mount memory <= 100 MB after the whole run (VmRSS {IDLE_WHEN}; 1 MB = 10^6 bytes){size}",
                     f"VmRSS {rss / MB:.1f} MB ({busy / MB:.1f} MB right after the last step; "
                     f"peak VmHWM {rows['hwm/after the runs'].mailfs * MIB / MB:.1f} MB)",
                     verdict(rss <= 100 * MB)))
    imported = rows["import"]
    verdicts.append((f"`mailfs import` <= 3x `cp -a`{size}", table.show_ratio(imported.ratio),
                     verdict(imported.ratio is not None and imported.ratio <= 3.0)))
    peak = rows["import-rss"].mailfs * MIB
    verdicts.append((f"`mailfs import` peak memory <= 300 MB{size}", f"{peak / MB:.1f} MB",
                     verdict(peak <= 300 * MB)))
    return verdicts + judged_elsewhere() + fuse_limit(rows) + halt_polling(rows)


def judged_elsewhere() -> list:
    """The issue's goals that other sections of bench/results.md measure and judge."""
    where = {
        "mount start-up <= 1 s cold and import peak memory <= 300 MB at 200,000 messages":
            "the \"At 200,000 messages\" section (bench/lib/scale.py)",
        "IMAP sync vs mbsync (`FSync no`) <= 1.0x, sync memory, nothing new <= 0.1 s, IDLE p50 <= 300 ms":
            "the IMAP sync section (bench/sync/run.py)",
        "lazy content: first byte of a 20 MiB attachment within 50 ms of open, whole read <= 1.0x":
            "the lazy content section (bench/lazy/run.py)",
    }
    return [(goal, f"judged in {section}", "n/a") for goal, section in where.items()]


def fuse_limit(rows: dict) -> list:
    """How close mailfs gets to the C passthrough FUSE file system, with OPEN and without
    (no verdict: a reference)."""
    lines = []
    references = (("grep", "grep -r", "fuse-grep", "passthrough FUSE file system", "passthrough"),
                  ("ls-l", "ls -l", "fuse-ls-l", "passthrough FUSE file system", "passthrough"),
                  ("grep", "grep -r", "fuse-polling-grep", "passthrough with the CPUs kept polling",
                   "passthrough with the CPUs kept polling"),
                  ("grep", "grep -r", "fuse-noopen-grep", "passthrough without OPEN", "passthrough without OPEN"),
                  ("grep", "grep -r", "fuse-noopen-flush-grep", "passthrough without OPEN, with FLUSH",
                   "passthrough without OPEN, with FLUSH"))
    for key, name, limit_key, against, short in references:
        for state in ("warm", "cold"):
            ours, limit = rows.get(f"{key}/{state}"), rows.get(f"{limit_key}/{state}")
            if ours and limit and limit.mailfs:
                lines.append((f"reference: {name} {state}, mailfs vs the C {against}",
                              f"{ours.mailfs / limit.mailfs:.2f}x ({short} is {table.show_ratio(limit.ratio)} "
                              f"of the Maildir)", "n/a"))
    return lines


def halt_polling(rows: dict) -> list:
    """The goals that the caller's wake-up decides, measured again with the guest polling before
    it halts (bench/lib/step_halt.py; no verdict: the machine did not boot that way)."""
    lines = []
    for key, name, warm_limit, cold_limit in (("halt-grep", "`grep -r`", 1.5, 2.0),
                                              ("halt-find-entry", "`find` per entry", 3.0, 3.0)):
        warm, cold = rows.get(f"{key}/warm"), rows.get(f"{key}/cold")
        if warm and cold:
            lines.append((f"reference: {name}, {step_halt.LABEL}",
                          f"warm {table.show_ratio(warm.ratio)}, cold {table.show_ratio(cold.ratio)} "
                          f"(the goal: {warm_limit}x warm, {cold_limit}x cold)", "n/a"))
    return lines


def verdict(passed: bool) -> str:
    return "PASS" if passed else "MISS"


def goals_text(verdicts: list) -> str:
    return "\n".join(f"{mark}  {goal}: {measured}" for goal, measured, mark in verdicts)


def write_markdown(path: Path, results: list, verdicts: list, machine: list, corpus: list, notes: list,
                   method: list, traces: list):
    lines = ["# mailfs benchmark", "",
             "Written by `bench/run`; rerun it to refresh. Ratio = mailfs / Maildir (above 1: mailfs is slower "
             "or bigger). \"cold\" = page cache, dentries and inodes dropped right before the command "
             "(mailfs keeps its own in-process caches); \"warm\" = repeated with everything cached.", "",
             "## Results", "", table.markdown(results), "",
             "## Goals (issue 10)", "", "| goal | measured | verdict |", "|---|---|---|"]
    lines += [f"| {goal} | {measured} | **{mark}** |" if mark != "n/a" else f"| {goal} | {measured} | - |"
              for goal, measured, mark in verdicts]
    if traces:
        lines += [""] + fuse_requests.markdown(traces)
    lines += ["", "## Machine", ""] + [f"- {label}: {value}" for label, value in machine]
    lines += ["", "## Corpus", ""] + [f"- {line}" for line in corpus]
    lines += ["", "## Method", ""] + [f"- {line}" for line in method]
    lines += ["", "## Observations from this run", ""] + [f"- {line}" for line in notes]
    path.write_text("\n".join(lines) + "\n")
