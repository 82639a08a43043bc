"""Small, valid, deterministic attachment files: PNG images, PDF documents,
CSV sheets and iCalendar invitations.

Each is a real file of its type (a viewer opens it), generated from code so
the repository carries no binary assets and the bytes never change.
"""
import struct
import zlib


def _png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(width, height, pixel):
    """An 8-bit RGB PNG; `pixel(x, y)` returns an (r, g, b) tuple."""
    rows = bytearray()
    for y in range(height):
        rows.append(0)                      # filter type: none
        for x in range(width):
            rows.extend(pixel(x, y))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header)
            + _png_chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + _png_chunk(b"IEND", b""))


def bar_chart(values, width=160, height=90, colour=(46, 110, 170)):
    """A bar chart of `values` (0..1) on a light background, as a PNG."""
    slot = width // max(len(values), 1)

    def pixel(x, y):
        index = min(x // slot, len(values) - 1)
        top = height - 6 - int(values[index] * (height - 14))
        inside = slot // 6 < x % slot < slot - slot // 6 and top <= y < height - 6
        if inside:
            return colour
        return (200, 200, 200) if y == height - 6 else (250, 250, 247)
    return png(width, height, pixel)


def gradient(width, height, top, bottom, stripe=None):
    """A soft vertical gradient with an optional darker band: a stand-in photo."""
    def pixel(x, y):
        mix = y / max(height - 1, 1)
        colour = [int(a + (b - a) * mix) for a, b in zip(top, bottom)]
        if stripe and stripe[0] <= y < stripe[1] and (x // 6) % 2 == 0:
            colour = [c * 3 // 4 for c in colour]
        return tuple(colour)
    return png(width, height, pixel)


def logo(size, colour):
    """A round badge of one colour: the newsletter logo."""
    centre = size / 2

    def pixel(x, y):
        inside = (x - centre) ** 2 + (y - centre) ** 2 < (size / 2 - 2) ** 2
        return colour if inside else (255, 255, 255)
    return png(size, size, pixel)


def _pdf_escape(line):
    return line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def pdf(title, lines):
    """A one-page PDF 1.4 showing `title` and `lines` in Helvetica.

    Text is limited to Latin-1 (WinAnsiEncoding); offsets in the xref table
    are computed, so readers open the file without repairing it.
    """
    text = ["BT", "/F1 18 Tf", "56 780 Td", f"({_pdf_escape(title)}) Tj", "/F1 11 Tf", "0 -30 Td"]
    for line in lines:
        text += [f"({_pdf_escape(line)}) Tj", "0 -16 Td"]
    stream = ("\n".join(text + ["ET"]) + "\n").encode("latin-1")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] "
        b"/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"endstream",
        b"<< /Title (" + _pdf_escape(title).encode("latin-1") + b") /Producer (mailfs demo) >>",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    out += (f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info 6 0 R >>\n"
            f"startxref\n{xref}\n%%EOF\n").encode()
    return bytes(out)


def csv(rows):
    """Comma-separated values with CRLF line ends (RFC 4180); cells are quoted
    when they contain a comma or a quote."""
    def cell(value):
        value = str(value)
        if any(c in value for c in ',"\n'):
            return '"' + value.replace('"', '""') + '"'
        return value
    return "".join(",".join(cell(v) for v in row) + "\r\n" for row in rows).encode("utf-8")


def ics(uid, summary, start, end, organizer, attendees, location, stamp, method="REQUEST"):
    """An iCalendar (RFC 5545) invitation for one event; times are UTC datetimes."""
    def when(instant):
        return f"{instant:%Y%m%dT%H%M%SZ}"
    lines = ["BEGIN:VCALENDAR", "PRODID:-//mailfs//demo//EN", "VERSION:2.0", f"METHOD:{method}",
             "BEGIN:VEVENT", f"UID:{uid}", f"DTSTAMP:{when(stamp)}", f"DTSTART:{when(start)}",
             f"DTEND:{when(end)}", f"SUMMARY:{summary}", f"LOCATION:{location}",
             f"ORGANIZER;CN={organizer[0]}:mailto:{organizer[1]}"]
    lines += [f"ATTENDEE;CN={name};RSVP=TRUE:mailto:{address}" for name, address in attendees]
    lines += ["STATUS:CONFIRMED", "SEQUENCE:0", "END:VEVENT", "END:VCALENDAR"]
    return "".join(_ics_fold(line) + "\r\n" for line in lines).encode("utf-8")


def _ics_fold(line):
    """RFC 5545 folding: content lines longer than 75 octets continue after CRLF SPACE."""
    out, current = [], ""
    for char in line:
        if len((current + char).encode("utf-8")) > 75:
            out.append(current)
            current = " "
        current += char
    return "\r\n".join(out + [current])
