"""mboxrd files: each message after a 'From ' separator line, with every
body line matching /^>*From / escaped by one more '>' so that readers can
undo the escaping exactly."""
import re

from . import dates

_FROM = re.compile(rb"^(>*From )", re.MULTILINE)


def separator(sender, when):
    """'From you@demo.example Tue Sep  1 07:14:00 2026' plus a line feed."""
    return f"From {sender} {dates.asctime(when)}\n".encode("ascii")


def escape(message):
    return _FROM.sub(rb">\1", message)


def mbox(entries):
    """The bytes of an mbox file of (envelope sender, UTC date, message bytes)
    entries; a blank line ends each message."""
    chunks = []
    for sender, when, message in entries:
        body = escape(message)
        chunks += [separator(sender, when), body, b"" if body.endswith(b"\n") else b"\n", b"\n"]
    return b"".join(chunks)


def unescape(message):
    """The inverse of `escape`, for readers and checks."""
    return re.sub(rb"^>(>*From )", rb"\1", message, flags=re.MULTILINE)


def split(data):
    """The messages of an mboxrd file, unescaped, as (separator line, bytes)."""
    entries = []
    for chunk in re.split(rb"(?m)^(?=From )", data):
        if not chunk:
            continue
        line, _, message = chunk.partition(b"\n")
        if message.endswith(b"\n\n"):
            message = message[:-1]
        entries.append((line.decode("ascii"), unescape(message)))
    return entries
