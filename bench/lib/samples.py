"""Random messages found on both sides, so `cat` reads the same message from each.

The Maildir file is matched to its mailfs path by Message-ID through the store
(read-only, before the mount starts): email.fileName is the name the message has
in every directory, folder.path the folder's directory in the account.
"""
import random
import sqlite3
from pathlib import Path

import corpus

HEADER_LIMIT = 256 * 1024


def pick(tree: Path, store: Path, account_root: Path, count: int, seed: int) -> tuple[list, int]:
    """Up to `count` (Maildir path, mailfs path) pairs, and how many drawn messages had no match."""
    files = corpus.message_files(tree)
    drawn = random.Random(seed).sample(files, min(count, len(files)))
    by_id = mailfs_paths(store, account_root.name)
    pairs, unmatched = [], 0
    for path in drawn:
        candidates = by_id.get(message_id(path), {})
        wanted = corpus.mailfs_folder(tree, path.parent.parent)
        folder = wanted if wanted in candidates else next(iter(candidates), None)
        if folder is None:
            unmatched += 1
            continue
        pairs.append((path, account_root / folder / candidates[folder]))
    return pairs, unmatched


def mailfs_paths(store: Path, account: str) -> dict:
    """Message-ID (without angle brackets) -> {folder path: file name} for the account."""
    database = sqlite3.connect(f"file:{store / 'mailfs.sqlite'}?mode=ro", uri=True)
    try:
        rows = database.execute(
            """SELECT email.messageId, folder.path, email.fileName
               FROM email JOIN account ON account.id = email.accountId
               JOIN emailFolder ON emailFolder.emailId = email.id
               JOIN folder ON folder.id = emailFolder.folderId
               WHERE account.name = ? AND email.messageId IS NOT NULL""", (account,)).fetchall()
    finally:
        database.close()
    found = {}
    for identifier, folder, name in rows:
        found.setdefault(identifier.strip().strip("<>"), {})[folder] = name
    return found


def message_id(path: Path) -> str | None:
    """The Message-ID of a message file, from its header (unfolded), without angle brackets."""
    with open(path, "rb") as file:
        head = file.read(HEADER_LIMIT)
    header = head.split(b"\n\n", 1)[0].split(b"\r\n\r\n", 1)[0].decode("latin-1")
    lines = header.replace("\r\n", "\n").replace("\n\t", " ").replace("\n ", " ").split("\n")
    for line in lines:
        name, _, value = line.partition(":")
        if name.strip().lower() == "message-id":
            return value.strip().strip("<>") or None
    return None
