#!/usr/bin/env python3
"""The attachments Python's `email` package sees, as the oracle of AttachmentParityTests
(issue 11 point 4; docs/FUZZING.md has the comparison's counts).

    python_attachments.py FILE...    (a FILE ending in .mbox or named mbox.* is a mailbox)

Prints one JSON object: {"messages": [{"file", "index", "attachments": [...]}]}, messages in
the order given (a mailbox's in mailbox.mbox order). Parsing uses email.policy.default.

The definition of an attachment: walking the MIME tree from the top (multipart parts are
descended, a message/* part is a leaf as mailfs lists it: one file), a leaf is an attachment
when `part.is_attachment()` (Content-Disposition: attachment) or `part.get_filename()` finds
a name. Each is given by its IMAP part number ("1" for a message that is one part, "2.1"),
its file name, its content type, and the SHA-256 and size of `get_payload(decode=True)`
(null for a message/* part: Python keeps the parsed message, not its bytes).
"""
import email
import email.policy
import hashlib

import corpus_oracle


def leaves(part, number):
    """(part number, part) of every leaf, in tree order, numbered as IMAP numbers them."""
    if part.get_content_maintype() == "multipart" and part.is_multipart():
        for index, child in enumerate(part.get_payload(), start=1):
            yield from leaves(child, f"{number}.{index}" if number else str(index))
    else:
        yield (number or "1"), part


def attachment(number, part):
    payload = None if part.get_content_maintype() == "message" else part.get_payload(decode=True)
    return {
        "part": number,
        "filename": part.get_filename(),
        "type": part.get_content_type(),
        "sha256": hashlib.sha256(payload).hexdigest() if payload is not None else None,
        "size": len(payload) if payload is not None else None,
    }


def attachments(raw):
    message = email.message_from_bytes(raw, policy=email.policy.default)
    return [attachment(number, part) for number, part in leaves(message, "")
            if part.is_attachment() or part.get_filename() is not None]


if __name__ == "__main__":
    corpus_oracle.run("attachments", attachments)
