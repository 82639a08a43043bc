"""MIME structure of a message body: plain text, optionally with an HTML
alternative (multipart/alternative), inline images (multipart/related) and
attachments (multipart/mixed)."""
from . import mime
from .htmlbody import to_html


def text_encoding(sender, content):
    """The transfer encoding the sender's client would pick for `content`."""
    if content.isascii():
        return "7bit"
    if sender.id_style == "thunderbird":
        return "8bit"
    foreign = sum(not c.isascii() for c in content)
    if sender.id_style == "gmail" and foreign * 3 > len(content):
        return "base64"
    return "quoted-printable"


def body(book, sender, plain, html=False, images=(), attachments=(), encoding=None, charset="utf-8"):
    """The body Part of a message. `images` are (content_id, filename, png bytes)."""
    part = mime.text(plain, encoding=encoding or text_encoding(sender, plain), charset=charset)
    if html or images:
        rich = mime.text(to_html(plain, [(cid, name) for cid, name, _ in images]), "html")
        if images:
            pictures = [mime.attachment(data, "image/png", name, inline=True, content_id=cid)
                        for cid, name, data in images]
            rich = mime.multipart("related", [rich] + pictures, book.boundary(), '; type="text/html"')
        part = mime.multipart("alternative", [part, rich], book.boundary())
    if attachments:
        part = mime.multipart("mixed", [part] + list(attachments), book.boundary())
    return part


def html_only(book, document, attachments=()):
    """A message whose only text is HTML (newsletters, receipts)."""
    part = mime.text(document, "html")
    if attachments:
        part = mime.multipart("mixed", [part] + list(attachments), book.boundary())
    return part
