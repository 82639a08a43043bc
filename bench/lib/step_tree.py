"""Everyday tools over the mounted account against the same tools over the Maildir."""
import os
import sqlite3

import corpus
import fuse_requests
import samples
import timing
from compare import Setup, side_by_side
from rows import Row


def measure_listings(setup: Setup) -> list:
    """ls -f / ls -l of the big folder, find over everything, grep -r for a word."""
    account, maildir = setup.account_root, setup.corpus
    big = len(os.listdir(maildir / ".Big" / "cur"))
    rows = []
    for flag in ("-f", "-l"):
        outcome = side_by_side(setup, f"ls{flag}", f"ls {flag} Big ({big:,} msgs)",
                               ["ls", flag, str(account / "Big")], ["ls", flag, str(maildir / ".Big" / "cur")])
        note_lines(setup, f"ls {flag}", outcome)
        rows += outcome.rows
    outcome = side_by_side(setup, "find", "find over the whole account / Maildir",
                           ["find", str(account)], ["find", str(maildir)])
    note_lines(setup, "find", outcome, "mailfs also lists the threads/, attachments/ and archive/ views")
    rows += outcome.rows + per_entry(outcome)
    outcome = side_by_side(setup, "grep", f"grep -r {setup.word} threads/ vs Maildir",
                           ["grep", "-r", setup.word, str(account / "threads")], ["grep", "-r", setup.word, str(maildir)],
                           allowed_exit=(0, 1))
    note_lines(setup, f"grep -r {setup.word}", outcome)
    # The warm grep first: the cold find drops the page cache the timed greps filled.
    trace_requests(setup, "grep -r, warm", ["grep", "-r", setup.word, str(account / "threads")], cold=False,
                   allowed_exit=(0, 1))
    trace_requests(setup, "find, cold", ["find", str(account)], cold=True)
    return rows + outcome.rows


def trace_requests(setup: Setup, command: str, argv: list, cold: bool, allowed_exit=(0,)):
    """One more run of ARGV on mailfs with the FUSE tracepoints on (bench/lib/fuse_requests.py);
    skipped where they cannot be switched on."""
    if not fuse_requests.available() or (cold and not setup.cold):
        return
    if cold:
        setup.drop_caches()
    buffer_kb = fuse_requests.start()
    wall = 0.0
    try:
        wall = timing.run(argv, allowed_exit=allowed_exit).seconds
    finally:
        setup.traces.append(fuse_requests.stop(command, wall, buffer_kb))


def per_entry(outcome) -> list:
    """find prints more lines on mailfs (its extra views): the goal compares time per entry."""
    if not outcome.mailfs_lines or not outcome.maildir_lines:
        return []
    return [Row(row.key.replace("find", "find-entry"), "find, time per entry printed", row.state,
                row.mailfs / outcome.mailfs_lines, row.maildir / outcome.maildir_lines, "s")
            for row in outcome.rows]


def note_lines(setup: Setup, what: str, outcome, why: str = ""):
    """Records how many lines each side printed, a check that both did the same work; when the
    counts differ, also the warm time per line, which compares the work done per entry."""
    suffix = f" ({why})" if why else ""
    per_line = ""
    if outcome.mailfs_lines != outcome.maildir_lines and outcome.mailfs_lines and outcome.maildir_lines:
        warm = outcome.rows[-1]
        per_line = (f"; warm per line: {warm.mailfs / outcome.mailfs_lines * 1e6:.1f} µs on mailfs, "
                    f"{warm.maildir / outcome.maildir_lines * 1e6:.1f} µs on the Maildir")
    setup.notes.append(f"{what} printed {outcome.mailfs_lines:,} lines on mailfs and "
                       f"{outcome.maildir_lines:,} on the Maildir{suffix}{per_line}.")


def measure_cat(setup: Setup) -> list:
    """cat of the same random messages on both sides: p50/p99 cold (first read after a drop), then
    warm; then the same reads inside this process, which shows the file system without exec's cost."""
    pairs, unmatched = samples.pick(setup.corpus, setup.store, setup.account_root, setup.samples, setup.seed)
    missing = [mailfs for _, mailfs in pairs if not os.path.isfile(mailfs)]
    if missing:
        raise RuntimeError(f"{len(missing)} sampled messages are not in the mount, e.g. {missing[0]}")
    if unmatched:
        setup.notes.append(f"cat: {unmatched} drawn messages had no Message-ID match in the store and were skipped.")
    setup.drop_caches()
    cold_mailfs = [timing.run(["cat", str(mailfs)]) for _, mailfs in pairs]
    setup.drop_caches()
    cold_maildir = [timing.run(["cat", str(maildir)]) for maildir, _ in pairs]
    # The second drop emptied the kernel's caches of the mount too: read the mailfs side once
    # more, untimed, so "warm" means the same on both sides (the file was read since the drop).
    for _, mailfs in pairs:
        timing.read_file(mailfs)
    warm_mailfs, warm_maildir, read_mailfs, read_maildir = [], [], [], []
    for maildir, mailfs in pairs:
        warm_mailfs.append(timing.run(["cat", str(mailfs)]).seconds)
        warm_maildir.append(timing.run(["cat", str(maildir)]).seconds)
        read_mailfs.append(timing.read_file(mailfs))
        read_maildir.append(timing.read_file(maildir))
    differing = sum(1 for a, b in zip(cold_mailfs, cold_maildir) if a.output != b.output)
    exec_floor = timing.median([timing.run(["cat", "/dev/null"]).seconds for _ in range(50)])
    setup.notes.append(f"cat: {len(pairs)} messages; {differing} read differently on mailfs than in the Maildir "
                       f"(byte for byte); `cat /dev/null` alone takes {exec_floor * 1000:.2f} ms (exec overhead "
                       f"included on both sides).")
    rows = []
    for label, fraction in (("p50", 0.5), ("p99", 0.99)):
        metric = f"cat one message, {label} of {len(pairs)}"
        rows.append(Row(f"cat-{label}/cold", metric, setup.cold_label,
                        timing.percentile([r.seconds for r in cold_mailfs], fraction),
                        timing.percentile([r.seconds for r in cold_maildir], fraction), "s"))
        rows.append(Row(f"cat-{label}/warm", metric, "warm (read since the drop)",
                        timing.percentile(warm_mailfs, fraction), timing.percentile(warm_maildir, fraction), "s"))
    for label, fraction in (("p50", 0.5), ("p99", 0.99)):
        rows.append(Row(f"read-{label}/warm", f"open+read+close in-process (no exec), {label}", "warm (read since the drop)",
                        timing.percentile(read_mailfs, fraction), timing.percentile(read_maildir, fraction), "s"))
    return rows


def measure_conversation(setup: Setup) -> list:
    """`cat` of the conversation.txt of a thread of 100 messages or more (the smallest such thread;
    the largest when none is that long), the first time it is read since the mount started: its
    rendering included. The Maildir side is one `cat` of the same messages' files. Run before the
    walks, which render every conversation."""
    thread = largest_thread(setup)
    if thread is None:
        setup.notes.append("conversation.txt: the account has no thread to read.")
        return []
    name, count, message_ids = thread
    maildir_files = [str(path) for path in matching_files(setup.corpus, message_ids)]
    conversation = setup.account_root / "threads" / name / "conversation.txt"
    setup.drop_caches()
    first = timing.run(["cat", str(conversation)])
    setup.drop_caches()
    maildir = timing.run(["cat", *maildir_files])
    again = timing.median([timing.run(["cat", str(conversation)]).seconds for _ in range(setup.runs)])
    setup.notes.append(f"conversation.txt: thread \"{name}\" of {count} messages, {len(first.output):,} bytes of text "
                       f"from {len(maildir_files)} message files ({sum(os.path.getsize(f) for f in maildir_files):,} "
                       f"bytes) read by the Maildir side.")
    metric = f"cat conversation.txt of a {count}-message thread (Maildir: cat of its messages)"
    return [Row("conversation/cold", metric, f"{setup.cold_label}, first read since the mount started",
                first.seconds, maildir.seconds, "s"),
            Row("conversation/warm", metric, setup.warm_label, again, None, "s")]


def largest_thread(setup: Setup):
    """(directory name, message count, Message-IDs) of the thread the conversation step reads."""
    database = sqlite3.connect(f"file:{setup.store / 'mailfs.sqlite'}?mode=ro", uri=True)
    try:
        row = database.execute(
            """SELECT t.id, t.dirName, t.messageCount FROM thread t JOIN account a ON a.id = t.accountId
               WHERE a.name = ? ORDER BY t.messageCount < 100, abs(t.messageCount - 100) LIMIT 1""",
            (setup.account,)).fetchone()
        if row is None:
            return None
        ids = {id for (id,) in database.execute("SELECT messageId FROM email WHERE threadId = ? AND isDeleted = 0",
                                                (row[0],)) if id}
        return row[1], row[2], ids
    finally:
        database.close()


def matching_files(tree, message_ids: set) -> list:
    """The Maildir files whose Message-ID is one of `message_ids`."""
    wanted = {id.strip().strip("<>") for id in message_ids}
    return [path for path in corpus.message_files(tree) if samples.message_id(path) in wanted]
