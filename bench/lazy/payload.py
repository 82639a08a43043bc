"""The measured message: a short text part and one attachment of random bytes in base64.

Random bytes do not compress, so neither TLS nor the disk can shortcut them; base64 is what
a mail client sends for a binary file, so the server stores (and serves) about 4/3 of it.
"""
import base64
import hashlib
import os
import random
from dataclasses import dataclass
from pathlib import Path

ATTACHMENT_NAME = "random-20MiB.bin"
ATTACHMENT_PART = "2"  # BODY[2]: the second part of the multipart/mixed message
BOUNDARY = "lazy-bench-boundary-7f3a"


@dataclass
class Payload:
    content: bytes          # the attachment's decoded bytes
    message: bytes          # the whole RFC 5322 message as appended

    @property
    def sha256(self):
        return hashlib.sha256(self.content).hexdigest()


def make(size_bytes, seed):
    """A message whose part 2 is SIZE_BYTES random bytes (from SEED), base64 in 76-column lines."""
    content = random.Random(seed).randbytes(size_bytes)
    encoded = base64.encodebytes(content).replace(b"\n", b"\r\n")
    head = (
        "From: Lazy Bench <bench@example.test>\r\n"
        "To: alice@example.test\r\n"
        "Subject: Big attachment for the lazy-content benchmark\r\n"
        "Date: Sun, 22 Nov 2026 10:00:00 +0000\r\n"
        "Message-ID: <lazy-bench-1@example.test>\r\n"
        "MIME-Version: 1.0\r\n"
        f'Content-Type: multipart/mixed; boundary="{BOUNDARY}"\r\n'
        "\r\n"
        f"--{BOUNDARY}\r\n"
        "Content-Type: text/plain; charset=us-ascii\r\n"
        "\r\n"
        "The attachment is random bytes.\r\n"
        f"--{BOUNDARY}\r\n"
        "Content-Type: application/octet-stream\r\n"
        f'Content-Disposition: attachment; filename="{ATTACHMENT_NAME}"\r\n'
        "Content-Transfer-Encoding: base64\r\n"
        "\r\n"
    ).encode()
    return Payload(content, head + encoded + f"--{BOUNDARY}--\r\n".encode())


def write(data, path):
    """Writes DATA to PATH and fsyncs it, so a later page-cache drop finds it on disk."""
    path = Path(path)
    with open(path, "wb") as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())
    return path
