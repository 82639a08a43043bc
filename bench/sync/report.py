"""The Markdown section: one table mailfs | mbsync | ratio, the goals of issues 3 and 10, method notes."""
import statistics

import figures
import idle_latency
from figures import median, ratio, table
from measure import SPREAD_EACH, SPREAD_FOLDERS

GOAL_MEMORY_BYTES = 150 * 10**6
GOAL_INCREMENTAL_SECONDS = 0.5
# Issue 10's sync goals.
GOAL_SYNC_MEMORY_BYTES = 100 * 10**6
GOAL_NOTHING_NEW_SECONDS = 0.1
GOAL_IDLE_P50_SECONDS = 0.3


def seconds(value):
    """This section's durations: tenths of a millisecond below 10 ms."""
    return figures.seconds(value, small_digits=1)


def mib(kib):
    return "n/a" if kib is None else f"{kib / 1024:.1f} MiB"


def highest(runs, key):
    values = [run[key] for run in runs or [] if run.get(key) is not None]
    return max(values) if values else None


def above_idle(result, idle):
    """Highest VmHWM of the initial syncs minus the idle mount's VmRSS, in KiB."""
    peak = highest(result["mailfs"].get("initial_runs"), "hwm")
    return None if peak is None or not idle else peak - idle["rss"]


def initial_rows(result, idle):
    n = f"{result['messages']:,}"
    mine, theirs = result["mailfs"].get("initial_runs"), result["mbsync"].get("initial_runs")
    runs = f"median of {len(mine or [])}"
    wall, their_wall = median(mine, "wall"), median(theirs, "wall")
    cpu, their_cpu = median(mine, "cpu"), median(theirs, "cpu")
    peak, their_peak = highest(mine, "hwm"), highest(theirs, "rss")
    unsynced = median(result["mbsync"].get("initial_nofsync_runs"), "wall")
    return [
        (f"initial sync, {n} msgs, exec to done ({runs})", seconds(wall), seconds(their_wall), ratio(wall, their_wall)),
        ("  same, mbsync with `FSync no` (no fsync per message)", seconds(wall), seconds(unsynced),
         ratio(wall, unsynced)),
        ("  mailfs: exec to mount ready", seconds(median(mine, "ready")), "n/a", "n/a"),
        ("  mailfs: engine's \"sync finished in\"", seconds(median(mine, "engine")), "n/a", "n/a"),
        (f"  CPU time (user + sys), initial sync {n}", seconds(cpu), seconds(their_cpu), ratio(cpu, their_cpu)),
        (f"peak RSS, initial sync {n} (VmHWM / ru_maxrss, highest run)", mib(peak), mib(their_peak),
         ratio(peak, their_peak)),
        (f"  mailfs: peak RSS above the idle mount, {n}", mib(above_idle(result, idle)), "n/a", "n/a"),
    ]


def incremental_rows(result):
    n = f"{result['messages']:,}"
    mine, theirs = result["mailfs"], result["mbsync"]
    rows = []
    spread = f"{SPREAD_EACH} new in each of {len(SPREAD_FOLDERS)} other folders"
    for key, label in (("nothing_new", "nothing new"), ("ten_new", "10 new"), ("spread_new", spread)):
        if not mine.get(key) or not theirs.get(key):
            continue
        wall, their_wall = median(mine[key], "wall"), median(theirs[key], "wall")
        cpu, their_cpu = median(mine[key], "cpu"), median(theirs[key], "cpu")
        rows += [
            (f"incremental sync, {label}, {n} (median of {len(mine[key])})", seconds(wall), seconds(their_wall),
             ratio(wall, their_wall)),
            ("  mailfs: engine's \"sync finished in\" (0.1 s steps)", seconds(median(mine[key], "engine")), "n/a", "n/a"),
            (f"  CPU time (user + sys), {label}", seconds(cpu), seconds(their_cpu), ratio(cpu, their_cpu)),
        ]
    return rows


def idle_rows(result):
    """APPEND by another client -> file in the mount: total, the server's part, mailfs's part."""
    samples = result["mailfs"].get("idle")
    if not samples:
        return []
    parts = idle_latency.summary(samples)
    n = f"{result['messages']:,}"

    def cell(name):
        p50, p99 = parts[name]
        return f"{seconds(p50)} / {seconds(p99)}"
    return [
        (f"new mail by IDLE at {n}: APPEND OK -> file in the mounted INBOX (p50 / p99 of {len(samples)})",
         cell("total"), "n/a", "n/a"),
        ("  the server's part: APPEND OK -> EXISTS on an IDLE session of our own", cell("server"), "n/a", "n/a"),
        ("  mailfs's part: that EXISTS -> file visible", cell("mailfs"), "n/a", "n/a"),
    ]


def other_rows(result):
    n = f"{result['messages']:,}"
    mine, theirs = result["mailfs"], result["mbsync"]
    rows = []
    if mine.get("rss_end"):
        rows.append((f"  mailfs: VmRSS at the end, after the incremental syncs, {n}", mib(mine["rss_end"]), "n/a", "n/a"))
    for key, name in (("log_read", ".log"), ("status_read", ".status")):
        if mine.get(key):
            wall, cpu = mine[key]
            rows.append((f"  mailfs: one read of `{name}` at {n} (wall; mount CPU)",
                         f"{seconds(wall)}; {seconds(cpu)}", "n/a", "n/a"))
    if mine.get("store_bytes") and theirs.get("maildir_bytes"):
        rows.append((f"disk used after the syncs, {n}: store vs Maildir", mib(mine["store_bytes"] / 1024),
                     mib(theirs["maildir_bytes"] / 1024), ratio(mine["store_bytes"], theirs["maildir_bytes"])))
    return rows


def goal_rows(results, idle):
    """(goal, measured, met) for each goal the results can answer."""
    rows = []
    for result in results:
        mine, theirs = result["mailfs"], result["mbsync"]
        n = f"{result['messages']:,}"
        wall, their_wall = median(mine.get("initial_runs"), "wall"), median(theirs.get("initial_runs"), "wall")
        if wall and their_wall:
            rows.append((f"initial sync of {n} no slower than mbsync (ratio <= 1.0, medians)",
                         f"{wall / their_wall:.2f}x", wall <= their_wall))
        if mine.get("ten_new"):
            walls = [run["wall"] for run in mine["ten_new"]]
            rows.append((f"incremental sync of 10 new messages under 0.5 s ({n} in the mailbox; every run)",
                         f"median {seconds(statistics.median(walls))}, slowest {seconds(max(walls))}",
                         max(walls) < GOAL_INCREMENTAL_SECONDS))
        above = above_idle(result, idle)
        if result["messages"] >= 10_000 and above is not None:
            rows.append((f"peak memory under 150 MB above the idle mount for {n}",
                         f"{above * 1024 / 10**6:.0f} MB ({mib(above)})", above * 1024 < GOAL_MEMORY_BYTES))
    return rows


def issue10_goal_rows(results, idle):
    """(goal, measured, met) for issue 10's sync goals the results can answer."""
    rows = []
    for result in results:
        mine, theirs = result["mailfs"], result["mbsync"]
        n = f"{result['messages']:,}"
        wall = median(mine.get("initial_runs"), "wall")
        unsynced = median(theirs.get("initial_nofsync_runs"), "wall")
        if wall and unsynced:
            rows.append((f"initial sync of {n} <= 1.0x mbsync with `FSync no` (medians)",
                         f"{wall / unsynced:.2f}x", wall <= unsynced))
        above = above_idle(result, idle)
        if result["messages"] >= 10_000 and above is not None:
            rows.append((f"peak memory of the initial sync of {n} <= 100 MB above the idle mount",
                         f"{above * 1024 / 10**6:.0f} MB ({mib(above)})", above * 1024 <= GOAL_SYNC_MEMORY_BYTES))
        nothing_new = median(mine.get("nothing_new"), "wall")
        if result["messages"] >= 10_000 and nothing_new is not None:
            rows.append((f"incremental sync with nothing new at {n} <= 0.1 s (median, `.control` to `.log`)",
                         seconds(nothing_new), nothing_new <= GOAL_NOTHING_NEW_SECONDS))
        if mine.get("idle"):
            parts = idle_latency.summary(mine["idle"])
            p50 = parts["total"][0]
            rows.append((f"new mail by IDLE visible in the mount at {n}: p50 <= 300 ms",
                         f"p50 {seconds(p50)} (server {seconds(parts['server'][0])}, mailfs {seconds(parts['mailfs'][0])})",
                         p50 <= GOAL_IDLE_P50_SECONDS))
    return rows


def markdown(results, idle, notes, errors):
    """The whole section; RESULTS holds the sizes that completed, ERRORS says what did not."""
    out = ["## IMAP sync: mailfs vs mbsync", "",
           "Written by `bench/sync/run.py`. Ratio = mailfs / mbsync (above 1: mailfs is slower or bigger).", ""]
    rows = []
    if idle:
        rows.append(("mailfs: idle mount, account with no mail (VmRSS / VmHWM)",
                     f"{mib(idle['rss'])} / {mib(idle['hwm'])}", "n/a", "n/a"))
    for result in results:
        rows += initial_rows(result, idle) + incremental_rows(result) + idle_rows(result) + other_rows(result)
    out += [table(["metric", "mailfs", "mbsync", "ratio"], rows), ""]
    goals = [(goal, measured, "**PASS**" if met else "**MISS**") for goal, measured, met in goal_rows(results, idle)]
    if goals:
        out += ["### Goals (issue 3)", "", table(["goal", "measured", "verdict"], goals), ""]
    goals = [(goal, measured, "**PASS**" if met else "**MISS**")
             for goal, measured, met in issue10_goal_rows(results, idle)]
    if goals:
        out += ["### Goals (issue 10)", "", table(["goal", "measured", "verdict"], goals), ""]
    if errors:
        out += ["### Failed", ""] + [f"- {error}" for error in errors] + [""]
    out += ["### Method", ""] + [f"- {note}" for note in notes] + [""]
    return "\n".join(out)
