"""The messages both clients send: one short plain-text letter, alike but for its Message-ID.

Every header mailfs would otherwise add (Date, Message-ID, MIME-Version, Content-Type) is
already there, so mailfs and msmtp hand the server the same bytes; each file has its own
Message-ID so no server or client treats two of them as one.
"""
from email.utils import formatdate
from pathlib import Path

SENDER = "alice@example.test"
RECIPIENT = "bob@example.test"
BODY_LINES = 24  # about 1.7 KiB: a short personal message


def text(label):
    body = "".join(f"Line {number:02d} of a short letter sent to time mail submission, nothing more.\n"
                   for number in range(1, BODY_LINES + 1))
    return (f"From: Alice <{SENDER}>\n"
            f"To: Bob <{RECIPIENT}>\n"
            f"Subject: send benchmark {label}\n"
            f"Date: {formatdate(localtime=False)}\n"
            f"Message-ID: <send-bench-{label}@example.test>\n"
            "MIME-Version: 1.0\n"
            "Content-Type: text/plain; charset=utf-8\n"
            "\n" + body)


def write(directory, label):
    """Writes the letter LABEL as DIRECTORY/LABEL.eml and returns its path."""
    path = Path(directory) / f"{label}.eml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text(label))
    return path


def batch(directory, prefix, count):
    """COUNT letters named PREFIX-001 … in a fresh DIRECTORY, in sending order."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    for old in directory.glob("*.eml"):
        old.unlink()
    return [write(directory, f"{prefix}-{number:03d}") for number in range(1, count + 1)]
