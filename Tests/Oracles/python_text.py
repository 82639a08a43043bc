#!/usr/bin/env python3
"""The text a reader reads in each message, decoded by Python's `email` package: the oracle
MessageTextTests' corpus test checks mailfs's own reference decoding against (issue 45).

    python_text.py FILE...    (a FILE ending in .mbox or named mbox.* is a mailbox)

Prints one JSON object: {"messages": [{"file", "index", "text"}]}, messages in the order
given (a mailbox's in mailbox.mbox order). Parsing uses email.policy.default.

Which parts are text, the rules of mailfs's renderer: multipart/alternative gives its first
text/plain part when that holds more than blanks, else its last part; multipart/related its
root (the `start` parameter, else the first part); multipart/signed its first part;
multipart/encrypted nothing; other multiparts each part in order; an attached message
(message/rfc822, message/global) its own text. A leaf is text when it is not an attachment
(no attachment disposition, no file name) and is text/plain, text/html, text/enriched or
text/richtext; HTML is reduced to the character data outside script, style, head, title,
template and noscript elements and comments (html.parser).
"""
import email
import email.policy
import html.parser

import corpus_oracle

BODY_TEXT = {"text/plain", "text/html", "text/enriched", "text/richtext"}
HIDDEN = {"script", "style", "head", "title", "template", "noscript"}


class HTMLCharacters(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.hidden = 0
        self.parts = []

    def handle_starttag(self, tag, attrs):
        if tag in HIDDEN:
            self.hidden += 1
        self.parts.append(" ")

    def handle_endtag(self, tag):
        if tag in HIDDEN and self.hidden:
            self.hidden -= 1
        self.parts.append(" ")

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def html_text(markup):
    parser = HTMLCharacters()
    parser.feed(markup)
    parser.close()
    return "".join(parser.parts)


def is_attachment(part):
    return part.is_attachment() or part.get_filename() is not None or part.get_content_type() not in BODY_TEXT


def leaf_text(part):
    try:
        content = part.get_content()
    except Exception:  # an undecodable part: its raw payload as text
        content = part.get_payload(decode=True) or b""
    if isinstance(content, bytes):
        content = content.decode("utf-8", "replace")
    if not isinstance(content, str):
        return ""
    return html_text(content) if part.get_content_type() == "text/html" else content


def readable(part):
    maintype, subtype = part.get_content_maintype(), part.get_content_subtype()
    if maintype == "multipart" and part.is_multipart():
        children = part.get_payload()
        if subtype == "alternative":
            for child in children:
                if child.get_content_type() == "text/plain" and not is_attachment(child):
                    text = leaf_text(child)
                    if text.strip():
                        return text
                    break
            chosen = [child for child in children if child.get_content_maintype() == "multipart"
                      or not is_attachment(child)]
            return readable((chosen or children)[-1]) if children else ""
        if subtype == "related":
            start = part.get_param("start")
            root = next((child for child in children if start and child.get("content-id") == start), None)
            return readable(root or children[0]) if children else ""
        if subtype == "signed":
            return readable(children[0]) if children else ""
        if subtype == "encrypted":
            return ""
        return "\n".join(readable(child) for child in children)
    if part.get_content_type() in ("message/rfc822", "message/global") and part.is_multipart():
        return "\n".join(readable(inner) for inner in part.get_payload())
    if is_attachment(part):
        return ""
    return leaf_text(part)


if __name__ == "__main__":
    corpus_oracle.run("text", lambda raw: readable(email.message_from_bytes(raw, policy=email.policy.default)))
