#!/usr/bin/env python3
"""Checks demo/mail/ with Python's own email parser, independently of mailfs.

    python3 demo/validate.py [DIR]        # DIR defaults to demo/mail

Every message must parse without defects, every part must decode (base64
strictly, PNG/PDF/iCalendar/CSV by their own structure), threads must link
up, and the features the demo promises must be present. Prints a summary and
exits non-zero on the first class of failure found.
"""
import base64
import collections
import email
import email.policy
import email.utils
import mailbox
import re
import sys
import zlib
from pathlib import Path

sys.dont_write_bytecode = True
from demomail.mbox import split  # noqa: E402

ROOT = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent / "mail"
GHOST_ROOTS = {"<northwind/atlas/issues/1290@builds.northwind.example>"}
EXPECTED_FILES = {"Präsentation Q4.pdf", "Überweisungsbeleg Budgetfreigabe Oktober 2026 – Kontor Beratung.pdf",
                  "отчёт-октябрь.csv", "NDA – Ærø Data ApS.pdf", "Épreuve brochure.pdf", "meeting-notes.txt",
                  "invite.ics", "Renewal of your Sabiá support contract.eml"}
RAW_MARKERS = ["=?UTF-8?B?", "=?UTF-8?Q?", "=?ISO-8859-1?Q?", "=?ISO-2022-JP?B?", "filename*=UTF-8''",
               "filename*0*=", "multipart/alternative", "multipart/related", "message/rfc822",
               "Content-Transfer-Encoding: quoted-printable", "Status: RO", "Status: O", "X-Status: F",
               "X-Status: A", "X-Status: T", "text/calendar"]
problems = []


def check_file(name, data):
    """Structural check of an attachment by its type."""
    if name.endswith(".png"):
        assert data.startswith(b"\x89PNG\r\n\x1a\n"), name
        position, idat = 8, b""
        while position < len(data):
            length = int.from_bytes(data[position:position + 4], "big")
            kind, chunk = data[position + 4:position + 8], data[position + 8:position + 8 + length]
            crc = int.from_bytes(data[position + 8 + length:position + 12 + length], "big")
            assert zlib.crc32(kind + chunk) == crc, f"{name}: bad CRC in {kind!r}"
            idat += chunk if kind == b"IDAT" else b""
            position += 12 + length
        zlib.decompress(idat)
    elif name.endswith(".pdf"):
        assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF"), name
        start = int(data.rsplit(b"startxref\n", 1)[1].split(b"\n", 1)[0])
        assert data[start:start + 4] == b"xref", f"{name}: startxref points at {data[start:start + 8]!r}"
        for number, offset in enumerate(re.findall(rb"(\d{10}) 00000 n", data), 1):
            assert data[int(offset):].startswith(f"{number} 0 obj".encode()), f"{name}: object {number}"
    elif name.endswith(".ics"):
        assert data.startswith(b"BEGIN:VCALENDAR\r\n") and data.endswith(b"END:VCALENDAR\r\n"), name
    elif name.endswith((".csv", ".txt")):
        data.decode("utf-8")


def walk(message, where, stats):
    for part in message.walk():
        for defect in part.defects:
            problems.append(f"{where}: {type(defect).__name__}")
        kind = part.get_content_type()
        if part.is_multipart():         # walk() also descends into message/rfc822
            stats[kind] += 1
            if kind == "message/rfc822":
                stats["names"].add(part.get_filename())
            continue
        if part.get("Content-Transfer-Encoding", "").lower() == "base64":
            base64.b64decode(re.sub(rb"\s", b"", part.get_payload().encode("ascii")), validate=True)
        name = part.get_filename()
        if kind.startswith("text/") and not name:
            stats["text parts"] += 1
            assert "\ufffd" not in part.get_content(), f"{where}: undecodable {kind}"
        else:
            stats["files"] += 1
            stats["names"].add(name)
            check_file(name or "", part.get_payload(decode=True))
        if part.get("Content-ID"):
            stats["inline images"] += 1


def load():
    """Every message as (folder, separator line, raw bytes, parsed message)."""
    messages = []
    for path in sorted(ROOT.rglob("*.mbox")):
        folder = str(path.relative_to(ROOT))[:-5]
        data = path.read_bytes()
        entries = split(data)
        if len(entries) != len(mailbox.mbox(str(path))):
            problems.append(f"{folder}: mailbox.mbox disagrees on the message count")
        for line, raw in entries:
            messages.append((folder, line, raw, email.message_from_bytes(raw, policy=email.policy.default)))
    return messages


def threads(messages):
    """Union-find over Message-ID links, plus the subject fallback for
    messages with neither References nor In-Reply-To."""
    parent = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            x = parent[x]
        return x
    ids = {m["Message-ID"] for _, _, _, m in messages}
    by_subject = {}
    for _, _, _, m in messages:
        links = (m.get("References", "") + " " + m.get("In-Reply-To", "")).split()
        for link in links:
            if link not in ids and link not in GHOST_ROOTS:
                problems.append(f"{m['Message-ID']}: unknown parent {link}")
            parent[find(link)] = find(m["Message-ID"])
        if not links:
            base = re.sub(r"^((re|aw|sv|fwd?):\s*)+", "", str(m["Subject"]), flags=re.I)
            if base in by_subject:
                parent[find(m["Message-ID"])] = find(by_subject[base])
            by_subject.setdefault(base, m["Message-ID"])
    groups = collections.defaultdict(list)
    for folder, _, raw, m in messages:
        groups[find(m["Message-ID"])].append((folder, raw))
    return [g for g in groups.values()]


def main():
    messages = load()
    stats = collections.Counter()
    stats["names"] = set()
    seen_ids = set()
    for folder, line, raw, m in messages:
        where = f"{folder}: {m['Message-ID']}"
        for header in ("Date", "From", "Message-ID", "Subject"):
            if m[header] is None:
                problems.append(f"{where}: no {header}")
        if m["Message-ID"] in seen_ids:
            problems.append(f"{where}: duplicate Message-ID")
        seen_ids.add(m["Message-ID"])
        if "=?" in str(m["Subject"]) or not m["From"].addresses:
            problems.append(f"{where}: subject or From not decoded")
        if max(len(x) for x in raw.split(b"\n")) > 998:
            problems.append(f"{where}: line longer than 998 octets")
        try:
            walk(m, where, stats)
        except (AssertionError, ValueError, LookupError) as error:     # binascii.Error is a ValueError
            problems.append(f"{where}: {error}")
    groups = threads(messages)
    sizes = sorted(len(g) for g in groups if len(g) > 1)
    cross = sum(1 for g in groups if len({f for f, _ in g}) > 1)
    budget = sum(1 for g in groups if any(b"budget" in raw.lower() for _, raw in g))
    missing_files = EXPECTED_FILES - stats["names"]
    raw_all = b"\n".join(raw for _, _, raw, _ in messages).decode("utf-8", "replace")
    missing_markers = [marker for marker in RAW_MARKERS if marker not in raw_all]
    if missing_files or missing_markers:
        problems.append(f"missing features: {sorted(missing_files)} {missing_markers}")
    size = sum(p.stat().st_size for p in ROOT.rglob("*.mbox"))
    print(f"{len(messages)} messages, {size} bytes; folders: "
          + ", ".join(f"{f} {n}" for f, n in sorted(collections.Counter(f for f, *_ in messages).items())))
    print(f"{len(sizes)} threads of 2+ messages (sizes {sizes[0]}..{sizes[-1]}), {cross} span folders, "
          f"{budget} mention budget")
    print(f"{stats['text parts']} text parts, {stats['files']} files, {stats['inline images']} inline images, "
          f"{stats['multipart/alternative']} alternative, {stats['multipart/related']} related, "
          f"{stats['message/rfc822']} forwarded")
    for problem in problems[:40]:
        print("PROBLEM:", problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
