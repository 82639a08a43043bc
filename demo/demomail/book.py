"""The mailbox being built: every message with its folder, flags and bytes.

A `Mailbook` owns the one random generator of a run (so a fixed seed gives
fixed output), hands out Message-IDs and MIME boundaries, and renders each
message into RFC 5322 bytes with mutt/Dovecot-style `Status:`/`X-Status:`
headers carrying the flags.
"""
import datetime as dt
import random
from dataclasses import dataclass, field

from . import dates, mime
from .cast import YOU

START = dates.utc(2026, 9, 1, 6)
END = dates.utc(2026, 11, 20, 18)
_MAILERS = {
    "thunderbird": ("User-Agent", "Mozilla Thunderbird 128.4.2esr (Linux x86_64)"),
    "apple": ("X-Mailer", "Apple Mail (2.3826.300.87)"),
    "mutt": ("User-Agent", "Mutt/2.2.13 (2024-03-09)"),
    "outlook": ("X-Mailer", "Microsoft Outlook 16.0"),
}


@dataclass
class Mail:
    """One message and what the mailbox knows about it besides its bytes."""
    folder: str
    when: dt.datetime
    sender: object
    to: list
    cc: list
    subject: str
    subject_style: str
    message_id: str
    body: mime.Part
    plain: str = ""                     # the text a reply quotes
    said: list = field(default_factory=list)    # the sender's own paragraphs, as wrapped
    in_reply_to: str = ""
    references: list = field(default_factory=list)
    extra_headers: list = field(default_factory=list)
    flagged: bool = False
    unread: bool = None                 # None: decided by date
    draft: bool = False
    answered: bool = False


class Mailbook:
    """Collects the messages of the demo account and renders them."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.mails = []
        self._boundaries = 0

    def boundary(self):
        """A fresh multipart boundary that cannot occur in any content."""
        self._boundaries += 1
        return f"=_demo_{self._boundaries:04d}_{self.rng.getrandbits(32):08x}"

    def message_id(self, sender, when):
        """A Message-ID in the style of the sender's mail client."""
        hexes = lambda n: f"{self.rng.getrandbits(4 * n):0{n}x}"
        style = sender.id_style
        if style == "outlook":
            box = f"DB9PR07MB{self.rng.randint(1000, 9999)}"
            return f"<{box}{hexes(24).upper()}@{box}.eurprd07.prod.outlook.example>"
        if style == "apple":
            token = f"{hexes(8)}-{hexes(4)}-{hexes(4)}-{hexes(4)}-{hexes(12)}".upper()
            return f"<{token}@{sender.domain}>"
        if style == "gmail":
            alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
            token = "".join(self.rng.choice(alphabet) for _ in range(44))
            return f"<CA+{token}@mail.gmail.example>"
        if style == "mutt":
            return f"<{when:%Y%m%d%H%M%S}.GA{self.rng.randint(1000, 99999)}@{sender.domain}>"
        if style == "bot":
            return f"<{when:%Y%m%d%H%M%S}.{hexes(10)}@{sender.domain}>"
        return f"<{hexes(8)}-{hexes(4)}-4{hexes(3)}-a{hexes(3)}-{hexes(12)}@{sender.domain}>"

    def add(self, mail):
        if not START <= mail.when <= END:
            raise ValueError(f"{mail.subject!r} dated {mail.when} is outside the demo period")
        self.mails.append(mail)
        return mail

    def mark_answered(self):
        """Flag as answered every message the demo user replied to."""
        ids = {m.in_reply_to for m in self.mails if m.sender is YOU and m.in_reply_to}
        for mail in self.mails:
            if mail.message_id in ids and mail.sender is not YOU:
                mail.answered = True

    def render(self, mail, stored=True):
        """The message's bytes (without the mbox 'From ' line). `stored` adds
        the delivery trace and the flag headers of a message in a mailbox;
        without them the bytes are those of a message being forwarded."""
        head = self._headers(mail) + mail.body.headers
        if stored:
            head = self._received(mail) + head + self._status(mail)
        text = "\n".join(mime.fold(name, value) for name, value in head)
        return text.encode("ascii") + b"\n\n" + mail.body.payload()

    def _headers(self, mail):
        address = lambda p: mime.mailbox(p.name, p.address, p.name_style)
        headers = [("Date", dates.rfc5322(mail.when, mail.sender.zone)),
                   ("From", address(mail.sender)),
                   ("To", ", ".join(address(p) for p in mail.to) or "undisclosed-recipients:;")]
        if mail.cc:
            headers.append(("Cc", ", ".join(address(p) for p in mail.cc)))
        headers.append(("Subject", mime.unstructured(mail.subject, mail.subject_style)))
        headers.append(("Message-ID", mail.message_id))
        if mail.in_reply_to:
            headers.append(("In-Reply-To", mail.in_reply_to))
        if mail.references:
            headers.append(("References", " ".join(mail.references)))
        if mail.sender.id_style in _MAILERS:
            headers.append(_MAILERS[mail.sender.id_style])
        return headers + list(mail.extra_headers) + [("MIME-Version", "1.0")]

    def _received(self, mail):
        """Trace headers of delivery to the demo account (not on sent mail or drafts)."""
        if mail.folder in ("Sent", "Drafts") or mail.sender is YOU:
            return []
        arrival = mail.when + dt.timedelta(seconds=7 + len(mail.message_id))
        ip = f"198.51.100.{sum(map(ord, mail.sender.domain)) % 250 + 2}"
        return [("Return-Path", f"<{mail.sender.address}>"),
                ("Received", f"from mail.{mail.sender.domain} (mail.{mail.sender.domain} [{ip}]) "
                             f"by mx.demo.example with ESMTPS id {mail.message_id[1:9].upper()} "
                             f"for <{YOU.address}>; {dates.rfc5322(arrival, 'UTC')}")]

    def _status(self, mail):
        """mutt/Dovecot mbox flags: Status R = seen, O = old; X-Status A = answered,
        F = flagged, T = draft. Recent unread mail has no Status header at all."""
        unread = mail.unread
        if unread is None:
            unread = mail.folder not in ("Sent", "Drafts", "Trash") and mail.when >= dates.utc(2026, 11, 18)
        status = "O" if unread else "RO"
        if unread and mail.when >= dates.utc(2026, 11, 20):
            status = ""
        extra = "".join(letter for letter, on in (("A", mail.answered), ("F", mail.flagged),
                                                   ("T", mail.draft)) if on)
        headers = [("Status", status)] if status else []
        return headers + ([("X-Status", extra)] if extra else [])
