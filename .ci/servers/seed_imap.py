"""IMAP plumbing for seed.py: a verified TLS session to a test server, mailbox names (the
server's namespace, quoting in modified UTF-7, RFC 3501 §5.1.3) and parsing of the response
codes seed.py reports.
"""
import base64
import imaplib
import re
import ssl


class SeedError(Exception):
    """An IMAP command failed; the message is the server's answer."""


def connect(args):
    """Logs in over implicit TLS, verifying the server against the test CA."""
    context = ssl.create_default_context(cafile=args.ca_file)
    session = imaplib.IMAP4_SSL(args.host, args.port, ssl_context=context, timeout=30)
    check(session.login(args.user, args.password))
    return session


class Namespace:
    """Translates the tests' mailbox names ("Parent/Child", no personal prefix) to a server's
    ("INBOX.Parent.Child" on Courier) and back. "INBOX" is INBOX everywhere."""

    def __init__(self, prefix, delimiter):
        self.prefix, self.delimiter = prefix, delimiter

    @classmethod
    def of(cls, server, env):
        """The namespace of a server kind from start.sh's env file; Dovecot's is the identity."""
        upper = server.upper()
        return cls(env.get(f"MAILFS_TEST_{upper}_PREFIX", ""), env.get(f"MAILFS_TEST_{upper}_DELIMITER", "/"))

    def to_server(self, name):
        if name.upper() == "INBOX":
            return "INBOX"
        return self.prefix + name.replace("/", self.delimiter)

    def from_server(self, name):
        if name.upper() == "INBOX" or not name.startswith(self.prefix):
            return name
        return name[len(self.prefix):].replace(self.delimiter, "/")


def capabilities(session):
    """The server's capabilities now (after login they can differ from the greeting's)."""
    return check(session.capability())[0].decode().upper().split()


def check(result):
    """Returns the data of an OK answer, raises SeedError with the server's text otherwise."""
    status, data = result
    if status != "OK":
        raise SeedError(" ".join(item.decode(errors="replace") for item in data if isinstance(item, bytes)))
    return data


def quote(name):
    """A mailbox name as an IMAP quoted string in modified UTF-7."""
    return quote_string(encode_mutf7(name))


def quote_string(text):
    """Any ASCII text as an IMAP quoted string."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def encode_mutf7(name):
    """Printable ASCII stays, "&" becomes "&-", other runs become &base64(UTF-16BE)-."""
    out, pending = [], []

    def flush():
        if pending:
            raw = "".join(pending).encode("utf-16-be")
            out.append("&" + base64.b64encode(raw).decode().rstrip("=").replace("/", ",") + "-")
            pending.clear()

    for char in name:
        if 0x20 <= ord(char) <= 0x7E:
            flush()
            out.append("&-" if char == "&" else char)
        else:
            pending.append(char)
    flush()
    return "".join(out)


def decode_mutf7(name):
    """The inverse of encode_mutf7."""
    def run(match):
        text = match.group(1)
        if not text:
            return "&"
        raw = text.replace(",", "/")
        return base64.b64decode(raw + "=" * (-len(raw) % 4)).decode("utf-16-be")
    return re.sub(r"&([A-Za-z0-9+,]*)-", run, name)


def select(session, mailbox, readonly=False):
    """Selects a mailbox; returns (uidvalidity, number of messages)."""
    exists = check(session.select(quote(mailbox), readonly))[0]
    uidvalidity = session.untagged_responses.get("UIDVALIDITY", [b"0"])[-1]
    return int(uidvalidity), int(exists)


def response_code(data, name):
    """The arguments of response code [NAME …] in an answer, as a list of strings, or None."""
    for item in data:
        text = item.decode(errors="replace") if isinstance(item, bytes) else ""
        match = re.search(r"\[" + name + r"(?: ([^\]]*))?\]", text)
        if match:
            return (match.group(1) or "").split()
    return None


def uid_search(session, criteria):
    """UIDs matching a UID SEARCH, ascending."""
    data = check(session.uid("SEARCH", *criteria))
    # imaplib gives [None] when the server sent no untagged SEARCH, which Cyrus may do
    # while other tests delete folders of the shared account: nothing matched.
    return sorted(int(uid) for uid in b" ".join(d for d in data if isinstance(d, bytes)).split())
