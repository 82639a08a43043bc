"""The plain text of a message: greeting, wrapped paragraphs, sign-off,
signature and the quoted message being answered, in each sender's habits."""
import textwrap

from . import dates

_GREETINGS = ("Hi {names},", "Hello {names},", "Hi {names},", "Hey {names},", "{names},", "Dear {names},")
_SIGNOFFS = ("Thanks,", "Best,", "Cheers,", "Best regards,", "Kind regards,", "Thanks!", "Talk soon,",
             "All the best,", "Many thanks,")


def wrap(paragraph):
    """A paragraph wrapped at 72 columns (CJK text at 36 characters); text that
    already has line breaks (lists, tables) is kept as written."""
    paragraph = paragraph.strip("\n")
    if "\n" in paragraph:
        return paragraph
    wide = sum(ord(c) > 0x2E80 for c in paragraph) > len(paragraph) // 2
    return textwrap.fill(paragraph, width=36 if wide else 72, break_long_words=wide,
                         break_on_hyphens=False)


def greeting(rng, recipients):
    names = [p.greeting_name for p in recipients]
    if not names:
        return ""
    joined = names[0] if len(names) == 1 else f"{names[0]} and {names[1]}" if len(names) == 2 else "all"
    return rng.choice(_GREETINGS).format(names=joined)


def signoff(rng, sender, mobile=False):
    """Sign-off, first name and signature block (or a phone footer)."""
    close = f"{rng.choice(_SIGNOFFS)}\n{sender.sign_name}"
    if mobile:
        return close + "\n\nSent from my phone"
    if sender.signature:
        return close + "\n\n-- \n" + sender.signature
    return close


def quotable(mail):
    """The lines of `mail` a reply quotes: its text without the signature,
    with anything already quoted twice (and that quote's attribution) dropped."""
    text = mail.plain.split("\n-- \n", 1)[0].replace("\n\nSent from my phone", "")
    kept = []
    for line in text.rstrip("\n").split("\n"):
        depth = len(line) - len(line.lstrip("> "))
        markers = line[:depth].count(">")
        if markers >= 2 or (markers == 1 and line.endswith("wrote:")):
            continue
        kept.append(line)
    while kept and not kept[-1].strip():
        kept.pop()
    return kept


def last_point(mail):
    """What a trimming replier keeps of `mail`: its last paragraph before the
    sign-off (the one usually being answered)."""
    return mail.said[-1].split("\n") if mail.said else quotable(mail)


def quote(replier, parent, trim=False):
    """Attribution line and the quoted lines in the replier's quoting style."""
    when = dates.attribution(parent.when, replier.zone)
    head = f"On {when}, {parent.sender.name} <{parent.sender.address}> wrote:"
    lines = last_point(parent) if trim else quotable(parent)
    prefix = replier.quote
    quoted = [(prefix + line) if line else prefix.rstrip() for line in lines]
    return head + "\n" + "\n".join(quoted)


def compose(rng, sender, recipients, said, parent=None, greet=True, sign=True, mobile=False):
    """The full plain text of a message whose own paragraphs, already
    wrapped, are `said`. Top-posters write above the whole quote; the others
    greet, quote the point they answer, then write."""
    hello = greeting(rng, recipients) if greet and recipients else ""
    closing = signoff(rng, sender, mobile) if sign else ""
    if parent is None or sender.top_posts:
        text = "\n\n".join(b for b in [hello] + said + [closing] if b)
        return text + ("\n\n" + quote(sender, parent) if parent is not None else "") + "\n"
    return "\n\n".join(b for b in [hello, quote(sender, parent, trim=True)] + said + [closing] if b) + "\n"
