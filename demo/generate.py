#!/usr/bin/env python3
"""Writes the offline demo account's mailbox to demo/mail/ as mboxrd files.

    python3 demo/generate.py

The output depends only on the seed and the scripted stories (no clock, time
zone or locale), so running it twice gives byte-identical files.
"""
import shutil
import sys
from pathlib import Path

sys.dont_write_bytecode = True          # keep __pycache__ out of the repository

from demomail import (prose, story_budget, story_launch, story_misc, story_office,  # noqa: E402
                      story_services, story_world)
from demomail.book import Mailbook  # noqa: E402
from demomail.mbox import mbox  # noqa: E402

SEED = 20261120
TARGET_MESSAGES = 300
FOLDERS = ("INBOX", "Sent", "Drafts", "Trash", "Projects/Budget", "Projects/Launch", "Newsletters")
OUTPUT = Path(__file__).resolve().parent / "mail"


def build():
    """Every message of the demo account, flags settled."""
    book = Mailbook(SEED)
    story_budget.build(book)
    story_launch.build(book)
    report_thread = story_world.build(book)
    story_office.build(book)
    story_services.build(book)
    story_misc.build(book, report_thread)
    prose.everyday(book, TARGET_MESSAGES - len(book.mails))
    book.mark_answered()
    return book


def write(book, root):
    """Writes one mbox per folder into a temporary sibling, then swaps it in."""
    staging = root.with_name(root.name + ".tmp")
    shutil.rmtree(staging, ignore_errors=True)
    for folder in FOLDERS:
        mails = sorted((m for m in book.mails if m.folder == folder), key=lambda m: (m.when, m.message_id))
        entries = [(m.sender.address, m.when, book.render(m)) for m in mails]
        path = staging / f"{folder}.mbox"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(mbox(entries))
    unknown = {m.folder for m in book.mails} - set(FOLDERS)
    if unknown:
        raise ValueError(f"messages in folders that are not written: {sorted(unknown)}")
    shutil.rmtree(root, ignore_errors=True)
    staging.rename(root)


def main():
    book = build()
    write(book, OUTPUT)
    size = sum(p.stat().st_size for p in OUTPUT.rglob("*.mbox"))
    print(f"{len(book.mails)} messages, {size} bytes in {OUTPUT}")


if __name__ == "__main__":
    main()
