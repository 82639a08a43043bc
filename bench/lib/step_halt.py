"""`grep -r` and `find` again, both sides, with the guest polling before it halts an idle vCPU.

Every FUSE request puts its caller to sleep until the daemon answers. On a VM whose kernel
halts an idle vCPU at once (this one boots with `haltpoll.guest_halt_poll_ns=0`), waking the
caller is an exit to the host, 20-30 µs, paid once per round trip whatever the daemon does:
the Maildir side sleeps only on the disk. The cpuidle-haltpoll driver's own default is to poll
up to 200 µs first (growing from 50 µs while it pays off). Measuring both sides again with
that default shows how much of each ratio is this machine's idle policy rather than the file
system. The setting is restored right after; the goals stay judged on the machine as it booted.
"""
import os
from contextlib import contextmanager
from pathlib import Path

import step_tree
from compare import Setup, side_by_side

HALT_POLL = Path("/sys/module/haltpoll/parameters/guest_halt_poll_ns")
DRIVER_DEFAULT_NS = 200_000
LABEL = f"guest polls up to {DRIVER_DEFAULT_NS // 1000} µs before halting"


def current() -> int | None:
    """The guest's halt polling limit in ns, or None where there is no haltpoll driver."""
    try:
        return int(HALT_POLL.read_text().strip())
    except (OSError, ValueError):
        return None


def applies() -> bool:
    """Only where the guest halts at once and the setting can be changed (root)."""
    polling = current()
    return polling is not None and polling < DRIVER_DEFAULT_NS and os.access(HALT_POLL, os.W_OK)


@contextmanager
def polling(nanoseconds: int):
    """The guest polls up to `nanoseconds` before it halts an idle vCPU, until the block ends
    (also on an exception or SIGTERM, which bench.py turns into SystemExit)."""
    before = HALT_POLL.read_text().strip()
    HALT_POLL.write_text(str(nanoseconds))
    try:
        yield
    finally:
        HALT_POLL.write_text(before)


def measure(setup: Setup) -> list:
    """grep -r over threads/ and find over the account, cold and warm, as in step_tree, with
    halt polling at the driver's default."""
    account, maildir = setup.account_root, setup.corpus
    with polling(DRIVER_DEFAULT_NS):
        grep = side_by_side(setup, "halt-grep", f"grep -r {setup.word} threads/ vs Maildir, {LABEL}",
                            ["grep", "-r", setup.word, str(account / "threads")],
                            ["grep", "-r", setup.word, str(maildir)], allowed_exit=(0, 1))
        find = side_by_side(setup, "halt-find", f"find over the whole account / Maildir, {LABEL}",
                            ["find", str(account)], ["find", str(maildir)])
    per_entry = step_tree.per_entry(find)
    for row in per_entry:
        row.metric = f"find, time per entry printed, {LABEL}"
    return grep.rows + find.rows + per_entry
