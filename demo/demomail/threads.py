"""Conversations: a subject, its messages and their Message-ID /
In-Reply-To / References chain.

Replies carry the parent's references plus the parent's id, the sender's
reply prefix and a quote of the parent; the demo user's messages land in
Sent while the others land in the conversation's folder, so threads span
folders. A subject-only conversation omits In-Reply-To and References, as
mail from some web forms and old clients does.
"""
import datetime as dt

from . import bodies, letters
from .book import Mail
from .cast import YOU

_PREFIXES = ("re:", "aw:", "sv:", "fwd:", "fw:", "wg:")


def base_subject(subject):
    """The subject without leading reply/forward prefixes."""
    while subject.lower().startswith(_PREFIXES):
        subject = subject.split(":", 1)[1].lstrip()
    return subject


class Conversation:
    """Builds one thread of messages into a Mailbook."""

    def __init__(self, book, subject, folder, start, style="b", subject_only=False):
        self.book = book
        self.subject = subject
        self.folder = folder
        self.clock = start
        self.style = style
        self.subject_only = subject_only
        self.mails = []

    def post(self, sender, paragraphs, to=None, cc=None, after=0.0, reply_to=-1, attachments=(),
             html=False, images=(), folder=None, greet=True, sign=True, mobile=False, subject=None,
             encoding=None, charset="utf-8", headers=(), **flags):
        """Add a message `after` hours after the previous one and return it.

        `paragraphs` is a list of strings (or one string); `reply_to` picks the
        parent among earlier messages (None starts a new root); `flags` are
        Mail fields such as flagged=True, unread=False, draft=True or
        subject_style="jis"."""
        rng = self.book.rng
        when = self.clock + dt.timedelta(hours=after, minutes=rng.randint(0, 29), seconds=rng.randint(0, 59))
        parent = self.mails[reply_to] if self.mails and reply_to is not None else None
        to, cc = self._recipients(sender, parent, to, cc)
        if isinstance(paragraphs, str):
            paragraphs = [paragraphs]
        quoted = parent if parent is not None and not self.subject_only else None
        style = flags.pop("subject_style", None) or self._style(sender)
        said = [letters.wrap(p) for p in paragraphs]
        plain = letters.compose(rng, sender, to, said, quoted, greet, sign, mobile)
        mail = Mail(folder=folder or ("Sent" if sender is YOU else self.folder), when=when, sender=sender,
                    to=to, cc=cc, subject=subject or self._subject(sender, parent),
                    subject_style=style,
                    message_id=self.book.message_id(sender, when), plain=plain, said=said,
                    body=bodies.body(self.book, sender, plain, html, images, attachments, encoding, charset),
                    extra_headers=list(headers), **flags)
        if parent is not None and not self.subject_only:
            mail.in_reply_to = parent.message_id
            mail.references = parent.references + [parent.message_id]
        self.clock = when
        self.mails.append(self.book.add(mail))
        return mail

    def _style(self, sender):
        """How a non-ASCII subject is encoded: the conversation's style, or
        with style "sender" the sender's own habit."""
        return sender.name_style if self.style == "sender" else self.style

    def _subject(self, sender, parent):
        if parent is None:
            return self.subject
        return f"{sender.reply_prefix} {base_subject(self.subject)}"

    @staticmethod
    def _recipients(sender, parent, to, cc):
        """Explicit recipients, else reply-all to the parent, else the demo user."""
        if to is not None:
            return list(to), list(cc or [])
        if parent is None:
            return [YOU], list(cc or [])
        reply_to = [parent.sender] + [p for p in parent.to if p is not parent.sender]
        others = [p for p in reply_to if p is not sender]
        copied = [p for p in parent.cc if p is not sender and p not in others]
        return others or [YOU], copied if cc is None else list(cc)
