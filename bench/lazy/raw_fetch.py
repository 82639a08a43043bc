"""The plain way to get the attachment: python's imaplib, one UID FETCH of BODY.PEEK[2].

Each sample opens a fresh connection and logs in (timed apart, outside the fetch), selects
the INBOX read-only, then times the fetch itself. The command goes out with imaplib's
documented send(), the answer comes back with its readline() and read(), so the first byte
of the literal can be timed (imaplib's uid() hides it), at the cost of parsing the one
FETCH answer here.
"""
import base64
import hashlib
import imaplib
import re
import ssl
import time

from servers import BenchError

TAG = b"LAZY1"
LITERAL = re.compile(rb"\{(\d+)\}\r\n$")


def sample(servers, user, uid, part):
    """One fetch on a fresh logged-in connection: seconds of each phase, this process's CPU
    seconds for fetch + decode, and the decoded content's hash."""
    context = ssl.create_default_context(cafile=servers.ca_file)
    started = time.perf_counter()
    imap = imaplib.IMAP4_SSL("127.0.0.1", servers.port, ssl_context=context)
    try:
        imap.login(user, servers.password(user))
        logged_in = time.perf_counter()
        status, _ = imap.select("INBOX", readonly=True)
        if status != "OK":
            raise BenchError(f"EXAMINE INBOX failed: {status}")
        examined = time.perf_counter()
        cpu_started = time.process_time()
        timings, literal = _timed_fetch(imap, uid, part)
        decode_started = time.perf_counter()
        content = base64.b64decode(literal)
        timings["decoded"] = timings["done"] + time.perf_counter() - decode_started
        timings["cpu"] = time.process_time() - cpu_started
        timings["connect_login"] = logged_in - started
        timings["examine"] = examined - logged_in
        timings["encoded_bytes"] = len(literal)
        timings["sha256"] = hashlib.sha256(content).hexdigest()
        return timings
    finally:
        try:
            imap.logout()
        except (imaplib.IMAP4.error, OSError):
            pass


def _timed_fetch(imap, uid, part):
    """Sends the FETCH, reads its answer; seconds from sending to first literal byte, to the
    whole literal, and to the tagged OK."""
    started = time.perf_counter()
    imap.send(TAG + f" UID FETCH {uid} (BODY.PEEK[{part}])\r\n".encode())
    size = _literal_size(imap)
    first = imap.read(1)
    first_byte = time.perf_counter()
    literal = first + imap.read(size - 1)
    literal_end = time.perf_counter()
    if len(literal) != size:
        raise BenchError(f"the literal ended after {len(literal)} of {size} bytes")
    while not (line := imap.readline()).startswith(TAG + b" "):
        if not line:
            raise BenchError("the server closed the connection during the FETCH")
    if not line.startswith(TAG + b" OK"):
        raise BenchError(f"UID FETCH failed: {line!r}")
    done = time.perf_counter()
    return {"ttfb": first_byte - started, "literal": literal_end - started, "done": done - started}, literal


def _literal_size(imap):
    """Reads answer lines up to the FETCH line that announces the part's literal."""
    while True:
        line = imap.readline()
        if not line or line.startswith(TAG + b" "):
            raise BenchError(f"no literal in the FETCH answer: {line!r}")
        match = LITERAL.search(line)
        if match and b"FETCH" in line:
            size = int(match.group(1))
            if size < 1:
                raise BenchError("the server sent an empty part")
            return size


def find_uid(servers, user, message_id):
    """The UID of the message with MESSAGE_ID in USER's INBOX."""
    context = ssl.create_default_context(cafile=servers.ca_file)
    imap = imaplib.IMAP4_SSL("127.0.0.1", servers.port, ssl_context=context)
    try:
        imap.login(user, servers.password(user))
        imap.select("INBOX", readonly=True)
        status, data = imap.uid("SEARCH", None, "HEADER", "Message-ID", message_id)
        uids = data[0].split() if status == "OK" and data and data[0] else []
        if len(uids) != 1:
            raise BenchError(f"expected one message {message_id} in the INBOX, found {len(uids)}")
        return int(uids[0])
    finally:
        imap.logout()
