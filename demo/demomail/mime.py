"""Hand-written MIME serialisation, so that every byte of the demo is chosen.

The stdlib generator draws random boundaries and re-folds headers its own
way; the demo needs byte-identical output on every run and deliberate variety
(RFC 2047 B and Q words, ISO-8859-1 and ISO-2022-JP, RFC 2231 parameters,
quoted-printable and base64 bodies), so messages are assembled here.
Lines end in LF: the mailbox is an mbox file on a Unix system.
"""
import base64
import urllib.parse

MAX_WORD = 75          # RFC 2047: an encoded word is at most 75 characters
MAX_LINE = 78          # RFC 5322: lines SHOULD be at most 78 characters
_Q_SAFE = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!*+-/")
_ATEXT_EXTRA = frozenset("!#$%&'*+-/=?^_`{|}~ ")
_TOKEN_SPECIALS = frozenset('()<>@,;:\\"/[]?= ')
_CHARSETS = {"b": ("UTF-8", "B"), "q": ("UTF-8", "Q"), "latin1": ("ISO-8859-1", "Q"),
             "jis": ("ISO-2022-JP", "B")}


def _q_text(raw):
    return "".join(chr(b) if b in _Q_SAFE else "_" if b == 0x20 else f"={b:02X}" for b in raw)


def _encode_chunk(chunk, charset, method):
    raw = chunk.encode(_python_codec(charset))
    payload = base64.b64encode(raw).decode() if method == "B" else _q_text(raw)
    return f"=?{charset}?{method}?{payload}?="


def _python_codec(charset):
    return {"ISO-2022-JP": "iso2022_jp"}.get(charset, charset.lower())


def encoded_words(text, style):
    """`text` as RFC 2047 encoded words of at most 75 characters each.

    Words are cut between characters (never inside a multi-byte sequence) and
    joined by spaces, which decoders drop between adjacent encoded words.
    """
    charset, method = _CHARSETS[style]
    words, chunk = [], ""
    for char in text:
        if chunk and len(_encode_chunk(chunk + char, charset, method)) > MAX_WORD:
            words.append(_encode_chunk(chunk, charset, method))
            chunk = ""
        chunk += char
    if chunk:
        words.append(_encode_chunk(chunk, charset, method))
    return " ".join(words)


def unstructured(text, style="b"):
    """A Subject-like value: leading ASCII words stay plain ('Re: ...')."""
    if text.isascii():
        return text
    words = text.split(" ")
    plain = []
    while words and words[0].isascii():
        plain.append(words.pop(0))
    return " ".join(plain + [encoded_words(" ".join(words), style)])


def phrase(text, style="q"):
    """A display name: an atom sequence, a quoted string or encoded words."""
    if not text.isascii():
        return encoded_words(text, style)
    if all(c.isalnum() or c in _ATEXT_EXTRA for c in text):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def mailbox(name, address, style="q"):
    """'Display Name <local@domain>', or the bare address without a name."""
    return f"{phrase(name, style)} <{address}>" if name else address


def param(name, value):
    """A MIME parameter: token, quoted string, or RFC 2231 UTF-8 percent-encoding."""
    if not value.isascii():
        return f"{name}*=UTF-8''{urllib.parse.quote(value, safe='')}"
    if value and not any(c in _TOKEN_SPECIALS or not c.isprintable() for c in value):
        return f"{name}={value}"
    return f'{name}="' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def param_continued(name, value, pieces):
    """An RFC 2231 parameter split into `pieces` numbered continuations
    (name*0*, name*1*, ...), cut between characters as mail clients do."""
    size = -(-len(value) // pieces)
    cuts = [urllib.parse.quote(value[i:i + size], safe="") for i in range(0, len(value), size)]
    first = f"{name}*0*=UTF-8''{cuts[0]}"
    return "; ".join([first] + [f"{name}*{i}*={cut}" for i, cut in enumerate(cuts[1:], 1)])


def fold(name, value):
    """'Name: value' folded at spaces so that lines stay within 78 characters."""
    lines, current = [], f"{name}:"
    for token in value.split(" "):
        if len(current) + 1 + len(token) > MAX_LINE and current.strip() and current != f"{name}:":
            lines.append(current)
            current = ""
        current += " " + token
    lines.append(current)
    return "\n".join(lines)


def quoted_printable(data):
    """RFC 2045 quoted-printable with LF line ends, 76-character lines and
    a line-initial 'From ' written as '=46rom ' so mbox never needs to escape it."""
    out = []
    for line in data.split(b"\n"):
        current = ""
        for index, byte in enumerate(line):
            last = index == len(line) - 1
            if byte == 0x3D or byte > 0x7E or (byte < 0x20 and byte != 0x09) or (last and byte in (0x20, 0x09)):
                token = f"={byte:02X}"
            elif current == "" and line[index:index + 5] == b"From ":
                token = "=46"
            else:
                token = chr(byte)
            if len(current) + len(token) > 75:
                out.append(current + "=")
                current = "=46" if line[index:index + 5] == b"From " else token
                continue
            current += token
        out.append(current)
    return "\n".join(out).encode("ascii")


class Part:
    """A MIME entity: headers and either an encoded body or child parts."""

    def __init__(self, headers, body=b"", parts=(), boundary=None):
        self.headers = list(headers)
        self.body = body
        self.parts = list(parts)
        self.boundary = boundary

    def payload(self):
        """The body bytes after the header block."""
        if not self.parts:
            return self.body if self.body.endswith(b"\n") else self.body + b"\n"
        mark = self.boundary.encode()
        chunks = [b"This is a multi-part message in MIME format.\n\n"]
        for child in self.parts:
            chunks.append(b"--" + mark + b"\n" + child.to_bytes() + b"\n")
        chunks.append(b"--" + mark + b"--\n")
        return b"".join(chunks)

    def to_bytes(self, extra_headers=()):
        head = "\n".join(fold(n, v) for n, v in list(extra_headers) + self.headers)
        return head.encode("ascii") + b"\n\n" + self.payload()


def text(content, subtype="plain", encoding="quoted-printable", charset="utf-8", extra=""):
    """A text/* leaf. `encoding` is the transfer encoding: 7bit, 8bit,
    quoted-printable or base64."""
    raw = content.encode(_python_codec(charset.upper()))
    body = {"quoted-printable": quoted_printable, "base64": base64.encodebytes}.get(
        encoding, lambda data: data)(raw)
    headers = [("Content-Type", f"text/{subtype}; charset={charset}{extra}")]
    headers.append(("Content-Transfer-Encoding", encoding))
    return Part(headers, body)


def attachment(data, mime_type, filename=None, inline=False, content_id=None,
               encoding="base64", name_param=None, disposition_params=None):
    """A leaf for a file. `name_param`/`disposition_params` override how the
    file name is spelled (for RFC 2047-in-parameter or RFC 2231 continuations)."""
    content_type = mime_type
    if name_param or filename:
        content_type += "; " + (name_param or param("name", filename))
    headers = [("Content-Type", content_type)]
    disposition = "inline" if inline else "attachment"
    if disposition_params or filename:
        disposition += "; " + (disposition_params or param("filename", filename))
    headers.append(("Content-Disposition", disposition))
    if content_id:
        headers.append(("Content-ID", f"<{content_id}>"))
    body = base64.encodebytes(data) if encoding == "base64" else quoted_printable(data)
    headers.append(("Content-Transfer-Encoding", encoding))
    return Part(headers, body)


def multipart(subtype, parts, boundary, extra=""):
    """A multipart/* entity; the boundary is given so output stays deterministic."""
    return Part([("Content-Type", f'multipart/{subtype}; boundary="{boundary}"{extra}')],
                parts=parts, boundary=boundary)


def rfc822(message, filename):
    """A forwarded message as a message/rfc822 part (7bit or 8bit, never encoded)."""
    encoding = "7bit" if message.isascii() else "8bit"
    return Part([("Content-Type", f"message/rfc822; {param('name', filename)}"),
                 ("Content-Disposition", f"attachment; {param('filename', filename)}"),
                 ("Content-Transfer-Encoding", encoding)], message)
