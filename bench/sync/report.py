"""The Markdown section: one table mailfs | mbsync | ratio, the goals of issue 3, method notes."""
import statistics

GOAL_MEMORY_BYTES = 150 * 10**6
GOAL_INCREMENTAL_SECONDS = 0.5


def seconds(value):
    if value is None:
        return "n/a"
    if value < 0.01:
        return f"{value * 1000:.1f} ms"
    return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.2f} s"


def mib(kib):
    return "n/a" if kib is None else f"{kib / 1024:.1f} MiB"


def ratio(mine, theirs):
    return "n/a" if mine is None or not theirs else f"{mine / theirs:.2f}x"


def median(runs, key):
    values = [run[key] for run in runs or [] if run.get(key) is not None]
    return statistics.median(values) if values else None


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
        (f"  same, mbsync with `FSync no` (no fsync per message)", seconds(wall), seconds(unsynced),
         ratio(wall, unsynced)),
        (f"  mailfs: exec to mount ready", seconds(median(mine, "ready")), "n/a", "n/a"),
        (f"  mailfs: engine's \"sync finished in\"", seconds(median(mine, "engine")), "n/a", "n/a"),
        (f"  CPU time (user + sys), initial sync {n}", seconds(cpu), seconds(their_cpu), ratio(cpu, their_cpu)),
        (f"peak RSS, initial sync {n} (VmHWM / ru_maxrss, highest run)", mib(peak), mib(their_peak),
         ratio(peak, their_peak)),
        (f"  mailfs: peak RSS above the idle mount, {n}", mib(above_idle(result, idle)), "n/a", "n/a"),
    ]


def incremental_rows(result):
    n = f"{result['messages']:,}"
    mine, theirs = result["mailfs"], result["mbsync"]
    rows = []
    for key, label in (("nothing_new", "nothing new"), ("ten_new", "10 new")):
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


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def markdown(results, idle, notes, errors):
    """The whole section; RESULTS holds the sizes that completed, ERRORS says what did not."""
    out = ["## IMAP sync: mailfs vs mbsync", "",
           "Written by `bench/sync/run.py`. Ratio = mailfs / mbsync (above 1: mailfs is slower or bigger).", ""]
    rows = []
    if idle:
        rows.append(("mailfs: idle mount, account with no mail (VmRSS / VmHWM)",
                     f"{mib(idle['rss'])} / {mib(idle['hwm'])}", "n/a", "n/a"))
    for result in results:
        rows += initial_rows(result, idle) + incremental_rows(result) + other_rows(result)
    out += [table(["metric", "mailfs", "mbsync", "ratio"], rows), ""]
    goals = [(goal, measured, "**PASS**" if met else "**MISS**") for goal, measured, met in goal_rows(results, idle)]
    if goals:
        out += ["### Goals (issue 3)", "", table(["goal", "measured", "verdict"], goals), ""]
    if errors:
        out += ["### Failed", ""] + [f"- {error}" for error in errors] + [""]
    out += ["### Method", ""] + [f"- {note}" for note in notes] + [""]
    return "\n".join(out)
