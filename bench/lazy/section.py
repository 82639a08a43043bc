"""The Markdown section: the table of medians, the goals of issues 4 and 10, and how it was measured."""
import statistics

from figures import median, ratio, seconds, table

GOAL_FIRST_READ = 1.2   # cold read through the mount / raw IMAP fetch
GOAL_CACHED_READ = 2.0  # cached read through the mount / cat from local disk
GOAL_FIRST_BYTE = 0.050  # issue 10: seconds from open() to the first byte of a cold read
GOAL_WHOLE_READ = 1.0   # issue 10: cold read through the mount / imaplib fetch + decode
MIB = 1 << 20


def throughput(size, value):
    return "n/a" if not value else f"{size / MIB / value:.0f} MiB/s"


def spread(samples, key):
    """Every sample of KEY in run order, so the spread behind a median is visible."""
    return ", ".join(seconds(sample[key]) for sample in samples if sample.get(key) is not None)


def first_read_rows(result):
    mount, raw, size = result["mount_cold"], result["raw"], result["size"]
    total, decoded, fetched = median(mount, "total"), median(raw, "decoded"), median(raw, "done")
    return [
        ("first read (cold): time to first byte", seconds(median(mount, "ttfb")), seconds(median(raw, "ttfb")),
         ratio(median(mount, "ttfb"), median(raw, "ttfb"))),
        ("first read (cold): all bytes, vs fetch + base64 decode", seconds(total), seconds(decoded),
         ratio(total, decoded)),
        ("  same, vs fetch alone (tagged OK, still base64)", seconds(total), seconds(fetched), ratio(total, fetched)),
        ("  throughput (decoded bytes)", throughput(size, total), throughput(size, decoded), "n/a"),
        ("  mailfs: open() (returns once the server began sending)", seconds(median(mount, "open")), "n/a", "n/a"),
        ("  mailfs: .log \"downloaded … in N ms\" (fetch, decode, cache write, overlapping the reads)",
         seconds(_logged(mount)), "n/a", "n/a"),
        ("  CPU time of the client (mount process / this python process), fetch + decode",
         seconds(median(mount, "cpu")), seconds(median(raw, "cpu")), ratio(median(mount, "cpu"), median(raw, "cpu"))),
        ("  imaplib: last byte of the literal", "n/a", seconds(median(raw, "literal")), "n/a"),
        ("  imaplib: connect + TLS + LOGIN (fresh connection, not in the times above)", "n/a",
         seconds(median(raw, "connect_login")), "n/a"),
        ("  imaplib: EXAMINE INBOX (not in the times above; mailfs's times include its own)", "n/a",
         seconds(median(raw, "examine")), "n/a"),
    ]


def cached_rows(result):
    size, rows = result["size"], []
    for condition in ("cold", "warm"):
        mine, theirs = result.get(f"mount_cat_{condition}"), result.get(f"disk_cat_{condition}")
        if not mine or not theirs:
            continue
        ours, local = median(mine, "seconds"), median(theirs, "seconds")
        what = "page cache dropped before each" if condition == "cold" else "page cache warm"
        rows += [(f"cached re-read, `cat` ({what})", seconds(ours), seconds(local), ratio(ours, local)),
                 ("  throughput", throughput(size, ours), throughput(size, local), "n/a")]
    return rows


def goal_rows(result):
    """(goal, measured, met) for each goal the samples answer."""
    rows = []
    total, decoded = median(result["mount_cold"], "total"), median(result["raw"], "decoded")
    fetched = median(result["raw"], "done")
    if total and decoded:
        rows.append(("first read within 1.2x of the raw IMAP fetch (fetch + decode: the same decoded bytes)",
                     f"{total / decoded:.2f}x", total <= GOAL_FIRST_READ * decoded))
        rows.append(("  stricter: within 1.2x of the fetch alone (imaplib not decoding base64)",
                     f"{total / fetched:.2f}x", total <= GOAL_FIRST_READ * fetched))
    for condition in ("cold", "warm"):
        ours = median(result.get(f"mount_cat_{condition}", []), "seconds")
        local = median(result.get(f"disk_cat_{condition}", []), "seconds")
        if ours and local:
            rows.append((f"cached read within 2x of local disk ({condition} page cache)",
                         f"{ours / local:.2f}x", ours <= GOAL_CACHED_READ * local))
    return rows


def issue10_goal_rows(result):
    """(goal, measured, met) for issue 10's lazy-content goals."""
    mount, raw = result.get("mount_cold", []), result.get("raw", [])
    first, total, decoded = median(mount, "ttfb"), median(mount, "total"), median(raw, "decoded")
    rows = []
    if first is not None:
        rows.append(("first byte of the 20 MiB attachment within 50 ms of open (cold, open() to first data)",
                     seconds(first), first <= GOAL_FIRST_BYTE))
    if total and decoded:
        rows.append(("whole read <= 1.0x imaplib fetch + decode (cold, open() to EOF)",
                     f"{total / decoded:.2f}x", total <= GOAL_WHOLE_READ * decoded))
    return rows


def markdown(result, notes, errors):
    size = result.get("size", 0)
    out = ["## Lazy content: reading a 20 MiB attachment", "",
           f"Written by `bench/lazy/run.py`. One {size / MIB:.0f} MiB attachment (random bytes, base64 in the "
           "message) read through the mount and fetched with python's imaplib from the same Dovecot; "
           "medians. Ratio = mailfs / the other (above 1: mailfs is slower).", ""]
    if result.get("raw") and result.get("mount_cold"):
        rows = first_read_rows(result) + cached_rows(result)
        out += [table(["metric", "mailfs (mount)", "imaplib / local disk", "ratio"], rows), ""]
        goals = [(goal, measured, "**PASS**" if met else "**MISS**") for goal, measured, met in goal_rows(result)]
        out += ["### Goals (issue 4)", "", table(["goal", "measured", "verdict"], goals), ""]
        goals = [(goal, measured, "**PASS**" if met else "**MISS**") for goal, measured, met in issue10_goal_rows(result)]
        out += ["### Goals (issue 10)", "", table(["goal", "measured", "verdict"], goals), ""]
    if errors:
        out += ["### Failed", ""] + [f"- {error}" for error in errors] + [""]
    out += ["### Method", ""] + [f"- {note}" for note in notes] + [""]
    return "\n".join(out)


def _logged(samples):
    values = [sample["logged_ms"] / 1000 for sample in samples if sample.get("logged_ms") is not None]
    return statistics.median(values) if values else None
