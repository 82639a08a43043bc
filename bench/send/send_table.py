"""The Markdown section: per-message and throughput tables, issue 5's goals, how it was measured."""
import statistics

from figures import median, ratio, seconds, table

GOAL_RATIO = 1.2       # mailfs per message / msmtp
GOAL_BULK_SECONDS = 10.0


def per_message_rows(result):
    mine, theirs = result["mailfs_one"], result["msmtp_one"]
    from_launch = {"accepted": _median_of(mine, lambda s: s["accepted"] + s["cp"]),
                   "delivered": _median_of(mine, lambda s: s["delivered"] + s["cp"])}
    return [
        _row("**accepted**: cp returned / msmtp launched → msmtp exited (mailfs: Postfix committed it)",
             median(mine, "accepted"), median(theirs, "exited")),
        _row("**in bob's INBOX**: cp returned / msmtp launched → Dovecot's Maildir rename",
             median(mine, "delivered"), median(theirs, "delivered")),
        _row("  same event both sides: → Postfix committed it (msmtp: before its exit)",
             median(mine, "accepted"), median(theirs, "accepted")),
        _row("  steps: → MAIL FROM reached Postfix (connect, TLS, EHLO, AUTH)",
             median(mine, "mail_from"), median(theirs, "mail_from")),
        _row("  steps: MAIL FROM → committed (RCPT, DATA, Postfix's cleanup)",
             _median_gap(mine, "mail_from", "accepted"), _median_gap(theirs, "mail_from", "accepted")),
        _row("  steps: committed → in bob's INBOX (Postfix → LMTP → Dovecot)",
             _median_gap(mine, "accepted", "delivered"), _median_gap(theirs, "accepted", "delivered")),
        _row("  msmtp: committed → exited (250, QUIT, exit)", None, _median_gap(theirs, "accepted", "exited")),
        _row("  mailfs: `cp` itself (write, close(): check, commit to the queue)", median(mine, "cp"), None),
        _row("  mailfs from `cp` launched: → accepted", from_launch["accepted"], median(theirs, "exited")),
        _row("  mailfs from `cp` launched: → in bob's INBOX", from_launch["delivered"], median(theirs, "delivered")),
        _row("  mailfs: → Sent copy saved, file gone from outbox/ (its xattr polled every 20 ms)",
             median(mine, "saved"), None),
    ]


def bulk_rows(result, count):
    mine, theirs = result["mailfs_bulk"], result["msmtp_bulk"]
    return [
        _row(f"**{count} messages: start → all accepted** (mailfs: last commit in Postfix; msmtp: loop ended)",
             median(mine, "accepted"), median(theirs, "finished")),
        _row(f"**{count} messages: start → all in bob's INBOX**",
             median(mine, "delivered"), median(theirs, "delivered")),
        _row("  start → first accepted", median(mine, "first_accepted"), median(theirs, "first_accepted")),
        _row("  pace: mean gap between two acceptances", median(mine, "pace"), median(theirs, "pace")),
        _row("  mailfs: the cp loop (all queued)", median(mine, "copied"), None),
        _row("  mailfs: → all Sent copies saved, outbox/ empty", median(mine, "saved"), None),
        ("  mailfs: CPU time of the mount process during the batch", seconds(median(mine, "cpu")), "n/a", "n/a"),
    ]


def lived_rows(result, count):
    lived, fresh = result["mailfs_lived"], result["mailfs_bulk"]
    rows = [_row(f"{count} messages: start → all in bob's INBOX", median(lived, "delivered"),
                 median(fresh, "delivered")),
            _row("  pace: mean gap between two acceptances", median(lived, "pace"), median(fresh, "pace")),
            _row("  → all Sent copies saved, outbox/ empty", median(lived, "saved"), median(fresh, "saved"))]
    return rows + [_row("  CPU time of the mount process during the batch", median(lived, "cpu"),
                        median(fresh, "cpu"))]


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
        stricter = _median_of(mine, lambda sample: sample["accepted"] + sample["cp"])
        rows.append(("  stricter: accepted, counted from `cp` launched instead of returned",
                     f"{stricter / median(theirs, 'exited'):.2f}x", stricter <= GOAL_RATIO * median(theirs, "exited")))
    bulk = result.get("mailfs_bulk")
    if bulk:
        worst = max(sample["delivered"] for sample in bulk)
        each = ", ".join(f"{seconds(sample['delivered'])} ({sample['sent_before']})" for sample in bulk)
        rows.append((f"{count} messages copied into outbox/ at once, all in the recipient's INBOX, in under "
                     f"{GOAL_BULK_SECONDS:.0f} s; judged on the slowest round",
                     f"{each}; (N): messages mailfs had sent, so already in Sent, before that round",
                     worst < GOAL_BULK_SECONDS))
        accepted = max(sample["accepted"] for sample in bulk)
        rows.append(("  the same, all accepted by the server", f"{seconds(accepted)} (slowest)",
                     accepted < GOAL_BULK_SECONDS))
    if result.get("mailfs_lived"):
        lived = result["mailfs_lived"][0]["delivered"]
        rows.append((f"  the same in a lived-in account: {result['lived_in']:,} more messages in alice's Sent",
                     seconds(lived), lived < GOAL_BULK_SECONDS))
    return rows


def markdown(result, notes, errors):
    count = result.get("count", 0)
    out = ["## Sending: outbox/ against msmtp", "",
           "Written by `bench/send/run.py`. A short letter copied into `outbox/` of alice's account in the mount "
           "(`undo_seconds = 0`) and the same file submitted by Debian's msmtp, to the same Postfix (SMTPS), "
           "delivered by LMTP into bob's INBOX in Dovecot. Server events are seen with inotify (Postfix's "
           "queue, bob's Maildir); medians. Ratio = mailfs / msmtp (above 1: mailfs is slower).", ""]
    if result.get("mailfs_one") and result.get("msmtp_one"):
        out += [f"### One message at a time ({len(result['mailfs_one'])} of each, alternating)", "",
                table(["metric", "mailfs", "msmtp", "ratio"], per_message_rows(result)), ""]
    if result.get("mailfs_bulk") and result.get("msmtp_bulk"):
        rounds = len(result["mailfs_bulk"])
        out += [f"### Throughput: {count} messages at once ({rounds} round{'s' if rounds != 1 else ''} of each)", "",
                table(["metric", "mailfs (cp loop into outbox/)", "msmtp (sequential loop)", "ratio"],
                      bulk_rows(result, count)), ""]
    if result.get("mailfs_lived") and result.get("mailfs_bulk"):
        out += [f"### Throughput in a lived-in account: {result['lived_in']:,} more messages in alice's Sent "
                "(mailfs, one batch)", "",
                table(["metric", "lived-in account", "the rounds above (median)", "ratio"],
                      lived_rows(result, count)), ""]
    goals = [(goal, measured, "**PASS**" if met else "**MISS**") for goal, measured, met in goal_rows(result, count)]
    if goals:
        out += ["### Goals (issue 5)", "", table(["goal", "measured", "verdict"], goals), ""]
    if errors:
        out += ["### Failed", ""] + [f"- {error}" for error in errors] + [""]
    out += ["### Method", ""] + [f"- {note}" for note in notes] + [""]
    return "\n".join(out)


def _row(label, ours, other):
    return (label, seconds(ours), seconds(other), ratio(ours, other))


def _median_of(samples, value):
    """The median of VALUE(sample) over the samples that have every figure it needs."""
    values = []
    for sample in samples:
        try:
            values.append(value(sample))
        except TypeError:  # a figure is None: that event was not seen
            continue
    return statistics.median(values) if values else None


def _median_gap(samples, earlier, later):
    return _median_of(samples, lambda sample: sample[later] - sample[earlier])
