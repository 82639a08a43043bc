"""The Markdown section: one table mailfs | mbsync | ratio, the goals of issue 3, method notes."""
import statistics

GOAL_MEMORY_BYTES = 150 * 10**6
GOAL_INCREMENTAL_SECONDS = 0.5


def seconds(value):
    if value is None:
        return "n/a"
    return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.2f} s"


def mib(kib):
    return "n/a" if kib is None else f"{kib / 1024:.1f} MiB"


def ratio(mine, theirs):
    return "n/a" if mine is None or not theirs else f"{mine / theirs:.2f}x"


def median(runs, index=0):
    values = [run[index] for run in runs if run[index] is not None]
    return statistics.median(values) if values else None


def size_rows(result, idle):
    """Table rows for one mailbox size."""
    n = f"{result['messages']:,}"
    mine, theirs = result["mailfs"], result["mbsync"]
    above = mine["hwm_initial"] - idle["rss"] if idle and "hwm_initial" in mine else None
    rows = [
        (f"initial sync, {n} msgs (exec to done)", seconds(mine.get("initial")), seconds(theirs.get("initial")),
         ratio(mine.get("initial"), theirs.get("initial"))),
        (f"  mailfs: exec to mount ready, {n}", seconds(mine.get("ready")), "n/a", "n/a"),
        (f"  mailfs: engine's \"sync finished in\", {n}", seconds(mine.get("initial_engine")), "n/a", "n/a"),
        (f"CPU time (user + sys), initial sync {n}", seconds(mine.get("initial_cpu")),
         seconds(theirs.get("initial_cpu")), ratio(mine.get("initial_cpu"), theirs.get("initial_cpu"))),
        (f"peak RSS, initial sync {n} (VmHWM / ru_maxrss)", mib(mine.get("hwm_initial")), mib(theirs.get("initial_rss")),
         ratio(mine.get("hwm_initial"), theirs.get("initial_rss"))),
        (f"  mailfs: peak RSS above the idle mount, {n}", mib(above), "n/a", "n/a"),
    ]
    for key, label in (("nothing_new", "nothing new"), ("ten_new", "10 new")):
        if mine.get(key) and theirs.get(key):
            wall, engine = median(mine[key]), median(mine[key], 1)
            rows.append((f"incremental sync, {label}, {n} (median of {len(mine[key])})", seconds(wall),
                         seconds(median(theirs[key])), ratio(wall, median(theirs[key]))))
            rows.append((f"  mailfs: engine's \"sync finished in\" (0.1 s steps)", seconds(engine), "n/a", "n/a"))
            cpu, their_cpu = median(mine[key], 2), median(theirs[key], 2)
            rows.append((f"  CPU time (user + sys), {label}", seconds(cpu), seconds(their_cpu), ratio(cpu, their_cpu)))
    if mine.get("store_bytes") and theirs.get("maildir_bytes"):
        rows.append((f"disk used after the syncs, {n}: store vs Maildir", mib(mine["store_bytes"] / 1024),
                     mib(theirs["maildir_bytes"] / 1024), ratio(mine["store_bytes"], theirs["maildir_bytes"])))
    return rows


def goal_rows(results, idle):
    rows = []
    for result in results:
        mine, theirs = result["mailfs"], result["mbsync"]
        n = f"{result['messages']:,}"
        if mine.get("initial") and theirs.get("initial"):
            value = mine["initial"] / theirs["initial"]
            rows.append((f"initial sync of {n} no slower than mbsync (ratio <= 1.0)", f"{value:.2f}x", value <= 1.0))
        if mine.get("ten_new"):
            walls = [run[0] for run in mine["ten_new"]]
            rows.append((f"incremental sync of 10 new messages under 0.5 s ({n} in the mailbox; slowest of {len(walls)})",
                         f"median {seconds(statistics.median(walls))}, slowest {seconds(max(walls))}",
                         max(walls) < GOAL_INCREMENTAL_SECONDS))
        if result["messages"] >= 10_000 and idle and mine.get("hwm_initial"):
            above = (mine["hwm_initial"] - idle["rss"]) * 1024
            rows.append((f"peak memory under 150 MB above the idle mount for {n}",
                         f"{above / 10**6:.0f} MB ({mib(above / 1024)})", above < GOAL_MEMORY_BYTES))
    return rows


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def markdown(results, idle, notes, errors):
    """The whole section; RESULTS holds the sizes that completed, ERRORS those that did not."""
    out = ["## IMAP sync: mailfs vs mbsync", "",
           "Written by `bench/sync/run.py`. Ratio = mailfs / mbsync (above 1: mailfs is slower or bigger).", ""]
    rows = [row for result in results for row in size_rows(result, idle)]
    if idle:
        rows.insert(0, ("mailfs: idle mount, account with no mail (VmRSS / VmHWM)",
                        f"{mib(idle['rss'])} / {mib(idle['hwm'])}", "n/a", "n/a"))
    out += [table(["metric", "mailfs", "mbsync", "ratio"], rows), ""]
    goals = [(goal, measured, "**PASS**" if ok else "**MISS**") for goal, measured, ok in goal_rows(results, idle)]
    if goals:
        out += ["### Goals (issue 3)", "", table(["goal", "measured", "verdict"], goals), ""]
    if errors:
        out += ["### Failed", ""] + [f"- {error}" for error in errors] + [""]
    out += ["### Method", ""] + [f"- {note}" for note in notes] + [""]
    return "\n".join(out)
