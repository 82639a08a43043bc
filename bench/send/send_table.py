"""The Markdown section: per-message and throughput tables, issue 5's goals, how it was measured."""
import statistics

from section import median, ratio, seconds, table

GOAL_RATIO = 1.2       # mailfs per message / msmtp
GOAL_BULK_SECONDS = 10.0


def per_message_rows(result):
    mine, theirs = result["mailfs_one"], result["msmtp_one"]

    def row(label, mine_key, theirs_key):
        ours, other = median(mine, mine_key) if mine_key else None, median(theirs, theirs_key) if theirs_key else None
        return (label, seconds(ours), seconds(other), ratio(ours, other))
    return [
        row("**accepted**: cp returned / msmtp launched → msmtp exited (mailfs: Postfix committed it)",
            "accepted", "exited"),
        row("**in bob's INBOX**: cp returned / msmtp launched → Dovecot's Maildir rename", "delivered", "delivered"),
        row("  same event both sides: → Postfix committed it (msmtp: before its exit)", "accepted", "accepted"),
        row("  steps: → MAIL FROM reached Postfix (connect, TLS, EHLO, AUTH)", "mail_from", "mail_from"),
        ("  steps: MAIL FROM → committed (RCPT, DATA, Postfix's cleanup)",
         *_difference_cells(mine, theirs, "accepted", "mail_from")),
        ("  steps: committed → in bob's INBOX (Postfix → LMTP → Dovecot)",
         *_difference_cells(mine, theirs, "delivered", "accepted")),
        ("  msmtp: committed → exited (250, QUIT, exit)", "n/a", seconds(_median_difference(theirs, "exited", "accepted")),
         "n/a"),
        row("  mailfs: `cp` itself (write, close(): check, commit to the queue)", "cp", None),
        ("  mailfs from `cp` launched: → accepted", seconds(_median_sum(mine, "accepted", "cp")),
         seconds(median(theirs, "exited")), ratio(_median_sum(mine, "accepted", "cp"), median(theirs, "exited"))),
        ("  mailfs from `cp` launched: → in bob's INBOX", seconds(_median_sum(mine, "delivered", "cp")),
         seconds(median(theirs, "delivered")), ratio(_median_sum(mine, "delivered", "cp"), median(theirs, "delivered"))),
        row("  mailfs: → Sent copy saved, file gone from outbox/ (.log polled every 20 ms)", "saved", None),
    ]


def bulk_rows(result, count):
    mine, theirs = result["mailfs_bulk"], result["msmtp_bulk"]

    def row(label, mine_key, theirs_key):
        ours, other = median(mine, mine_key) if mine_key else None, median(theirs, theirs_key) if theirs_key else None
        return (label, seconds(ours), seconds(other), ratio(ours, other))
    return [
        row(f"**{count} messages: start → all accepted** (mailfs: last commit in Postfix; msmtp: loop ended)",
            "accepted", "finished"),
        row(f"**{count} messages: start → all in bob's INBOX**", "delivered", "delivered"),
        row("  start → first accepted", "first_accepted", "first_accepted"),
        row("  pace: mean gap between two acceptances", "pace", "pace"),
        row("  mailfs: the cp loop (all queued)", "copied", None),
        row("  mailfs: → all Sent copies saved, outbox/ empty", "saved", None),
    ]


def goal_rows(result, count):
    """(goal, measured, met) for each goal the samples answer."""
    mine, theirs = result.get("mailfs_one"), result.get("msmtp_one")
    rows = []
    if mine and theirs:
        for label, ours, other in (
                ("accepted by the server", median(mine, "accepted"), median(theirs, "exited")),
                ("in the recipient's INBOX", median(mine, "delivered"), median(theirs, "delivered"))):
            rows.append((f"per message, {label}, within {GOAL_RATIO}x of msmtp (undo delay 0)",
                         f"{ours / other:.2f}x ({seconds(ours)} vs {seconds(other)})", ours <= GOAL_RATIO * other))
        stricter = _median_sum(mine, "accepted", "cp")
        rows.append(("  stricter: accepted, counted from `cp` launched instead of returned",
                     f"{stricter / median(theirs, 'exited'):.2f}x", stricter <= GOAL_RATIO * median(theirs, "exited")))
    bulk = result.get("mailfs_bulk")
    if bulk:
        worst = max(sample["delivered"] for sample in bulk)
        rows.append((f"{count} messages copied into outbox/ at once, all in the recipient's INBOX, in under "
                     f"{GOAL_BULK_SECONDS:.0f} s", f"{seconds(worst)} (slowest of {len(bulk)} rounds)",
                     worst < GOAL_BULK_SECONDS))
        accepted = max(sample["accepted"] for sample in bulk)
        rows.append((f"  the same, all accepted by the server", f"{seconds(accepted)} (slowest)",
                     accepted < GOAL_BULK_SECONDS))
    return rows


def markdown(result, notes, errors):
    count = result.get("count", 0)
    out = ["## Sending: outbox/ against msmtp", "",
           "Written by `bench/send/run.py`. A short letter copied into `alice/outbox/` of the mount "
           "(`undo_seconds = 0`) and the same file submitted by Debian's msmtp, to the same Postfix (SMTPS), "
           "delivered by LMTP into bob's INBOX in Dovecot. Server events are seen with inotify (Postfix's "
           "queue, bob's Maildir); medians. Ratio = mailfs / msmtp (above 1: mailfs is slower).", ""]
    if result.get("mailfs_one") and result.get("msmtp_one"):
        out += [f"### One message at a time ({len(result['mailfs_one'])} of each, alternating)", "",
                table(["metric", "mailfs", "msmtp", "ratio"], per_message_rows(result)), ""]
    if result.get("mailfs_bulk") and result.get("msmtp_bulk"):
        out += [f"### Throughput: {count} messages at once ({len(result['mailfs_bulk'])} rounds of each)", "",
                table(["metric", "mailfs (cp loop into outbox/)", "msmtp (sequential loop)", "ratio"],
                      bulk_rows(result, count)), ""]
    goals = [(goal, measured, "**PASS**" if met else "**MISS**") for goal, measured, met in goal_rows(result, count)]
    if goals:
        out += ["### Goals (issue 5)", "", table(["goal", "measured", "verdict"], goals), ""]
    if errors:
        out += ["### Failed", ""] + [f"- {error}" for error in errors] + [""]
    out += ["### Method", ""] + [f"- {note}" for note in notes] + [""]
    return "\n".join(out)


def _median_difference(samples, later, earlier):
    values = [s[later] - s[earlier] for s in samples if s.get(later) is not None and s.get(earlier) is not None]
    return statistics.median(values) if values else None


def _median_sum(samples, first, second):
    values = [s[first] + s[second] for s in samples if s.get(first) is not None and s.get(second) is not None]
    return statistics.median(values) if values else None


def _difference_cells(mine, theirs, later, earlier):
    ours, other = _median_difference(mine, later, earlier), _median_difference(theirs, later, earlier)
    return seconds(ours), seconds(other), ratio(ours, other)
