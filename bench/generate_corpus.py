#!/usr/bin/env python3
"""Generates a benchmark mail account as a Maildir++ tree.

    python3 bench/generate_corpus.py 50000 bench/work/maildir [--seed 1]

OUTDIR/{cur,new,tmp} is INBOX; subfolders are .Sent, .Drafts, .Trash,
.Archive.2025, .Lists.dev, .Lists.announce and .Big, which holds exactly
10,000 messages (N // 5 when N < 20,000) so that listing a large folder can
be measured. Messages come in threads (References chains, the user's
replies in .Sent), with a realistic size mix: a median of about 5 KB, 10 %
with base64 attachments of 20 KB to 1 MB and a few of several MB. Words
vary by topic, so `grep -rl quarterly` matches a few percent of the files.
File names carry Maildir flags (:2,S  :2,FS  :2,RS ...), mtimes are the
delivery dates, and the same seed always gives the same bytes. To stay
fast, paragraphs and attachment data are generated once and reused.
"""
import argparse
import base64
import math
import os
import random
import sys
import time
from pathlib import Path

BIG = 10_000
ME = ("Bench User", "bench@bench.example")
# Folder shares of the messages outside .Big; "personal" threads fill INBOX
# (2026) or .Archive.2025 (2025), and the user's own messages go to .Sent.
STREAMS = [("personal", 0.74), (".Lists.dev", 0.15), (".Lists.announce", 0.04), (".Trash", 0.05),
           (".Drafts", 0.02)]
FOLDERS = ["", ".Sent", ".Drafts", ".Trash", ".Archive.2025", ".Lists.dev", ".Lists.announce", ".Big"]
DAYS, MONTHS = "Mon Tue Wed Thu Fri Sat Sun".split(), "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()
YEAR_2025, YEAR_2026, END_2026 = 1735689600, 1767225600, 1795132800   # 2025-01-01, 2026-01-01, 2026-11-20
COMMON = ("the of and to a in is that for it as with was on be at by this had not are but from or have an "
          "they which one you were all we when there can been has more if will would about so what up out "
          "them some could into than then now only also new other its time very after first well way "
          "because just over think also back use two how our work even most still should people here "
          "need week before team plan next help meeting update please thanks today tomorrow review "
          "change check question issue note share send call agree idea point sure soon later good "
          "great problem result number part place case fact group day thing long small large early "
          "late last both each few same different right possible clear simple whole open close").split()
TOPICS = {
    "finance": "quarterly budget forecast invoice revenue margin ledger audit accrual payroll expense "
               "reconciliation cashflow variance approval procurement spend allocation fiscal statement",
    "engineering": "deploy build release regression rollback latency database index migration cache "
                   "server cluster pipeline container kubernetes certificate endpoint schema replica",
    "kernel": "patch commit maintainer driver scheduler interrupt mutex allocator bisect regression "
              "backport upstream subsystem bootloader firmware module reviewer signed tested",
    "sales": "customer renewal contract pricing discount pipeline prospect demo proposal quota "
             "territory partner onboarding churn upsell account negotiation signature",
    "travel": "flight hotel booking itinerary airport train visa passport luggage conference venue "
              "reimbursement transfer terminal departure arrival reservation taxi",
    "people": "interview candidate offer onboarding feedback promotion holiday benefits training "
              "mentor workshop hiring recruiter appraisal wellbeing leave policy",
    "product": "roadmap feature release design prototype research customer feedback launch metric "
               "experiment dashboard onboarding retention usability backlog priority",
    "legal": "agreement clause liability indemnity confidentiality jurisdiction counterparty "
             "signature amendment compliance regulation privacy consent retention notice",
    "social": "lunch dinner birthday party weekend holiday coffee drinks football concert picnic "
              "quiz running garden cinema museum recipe",
}
TOPIC_SHARE = {"finance": 8, "engineering": 18, "kernel": 6, "sales": 12, "travel": 8, "people": 10,
               "product": 16, "legal": 6, "social": 16}
SUBJECTS = {"finance": ["{Topic} review for Q{q}", "Quarterly {topic} figures", "Invoice {n}",
                        "{Topic} approval needed"],
            "engineering": ["{Topic} failing on main", "Plan for the {topic} change", "Incident {n}: {topic}"],
            "kernel": ["[PATCH v{q}] {topic}: fix {topic2} handling", "[RFC] {topic} rework",
                       "Re: [GIT PULL] {topic} fixes"],
            "sales": ["{Topic} call with Acme", "Follow-up on the {topic}", "{Topic} for {n}"],
            "travel": ["Your {topic} confirmation {n}", "{Topic} for the offsite", "Travel plans: {topic}"],
            "people": ["{Topic} next week", "Feedback on the {topic}", "{Topic} schedule"],
            "product": ["{Topic} draft v{q}", "Thoughts on the {topic}", "{Topic} results"],
            "legal": ["{Topic} review", "Updated {topic} for signature", "Question about the {topic}"],
            "social": ["{Topic} on Friday?", "{Topic} this weekend", "Who is in for {topic}?"]}
FIRST = ("Alice Bob Carol David Emma Farid Grace Hiro Ines Jonas Karin Liam Maria Noah Olga Priya Rafael "
         "Sara Tomas Uma Victor Wei Yara Zoe José Zoë Søren Łukasz Ólafur Müge Chloé Björn").split()
LAST = ("Smith Jones Garcia Müller Rossi Novak Kim Chen Tanaka Silva Petrov Dubois Larsen Kowalski Haddad "
        "Okafor Nguyen Ivanova Fernández Ærø Brontë Schäfer").split()
DOMAINS = [f"{w}.example" for w in "acme globex initech umbrella hooli stark wayne tyrell cyberdyne "
           "wonka aperture soylent vandelay oscorp gringotts monarch".split()]
ATTACHMENTS = [("report.pdf", "application/pdf", b"%PDF-1.5\n%\xe2\xe3\xcf\xd3\n"),
               ("photo.jpg", "image/jpeg", b"\xff\xd8\xff\xe0\x00\x10JFIF\x00"),
               ("chart.png", "image/png", b"\x89PNG\r\n\x1a\n"),
               ("archive.zip", "application/zip", b"PK\x03\x04\x14\x00"),
               ("figures.xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                b"PK\x03\x04\x14\x00\x06\x00")]


class Corpus:
    """Pools of text and attachment data drawn once from the seed, and the
    writer that turns them into messages."""

    def __init__(self, seed, outdir):
        self.rng = random.Random(seed)
        self.outdir = outdir
        self.sequence = 0
        self.bytes = 0
        self.with_attachments = 0
        self.counts = {folder: 0 for folder in FOLDERS}
        self.people = [self._person() for _ in range(400)]
        self.paragraphs = {topic: [self._paragraph(topic) for _ in range(1200)] for topic in TOPICS}
        lines = base64.encodebytes(self.rng.randbytes(57 * 120_000))       # 6.8 MB of data, 77-byte lines
        self.blob, self.blob_lines = lines, len(lines) // 77

    def _person(self):
        first, last = self.rng.choice(FIRST), self.rng.choice(LAST)
        local = f"{first}.{last}".lower().encode("ascii", "ignore").decode() or "user"
        return f"{first} {last}", f"{local}{self.rng.randint(1, 99)}@{self.rng.choice(DOMAINS)}"

    def _paragraph(self, topic):
        words = COMMON * 3 + TOPICS[topic].split()
        sentences = []
        for _ in range(self.rng.randint(2, 6)):
            chosen = self.rng.choices(words, k=self.rng.randint(6, 18))
            sentences.append(" ".join(chosen).capitalize() + self.rng.choice("...?"))
        return wrap(" ".join(sentences))

    def attachment(self, huge):
        """A base64 attachment part: a type's magic bytes, then pooled data."""
        name, kind, magic = self.rng.choice(ATTACHMENTS)
        size = self.rng.randint(2_000_000, 6_000_000) if huge else \
            min(1_000_000, max(20_000, int(self.rng.lognormvariate(math.log(60_000), 1.0))))
        count = min(size // 57, self.blob_lines - 1)
        start = self.rng.randrange(self.blob_lines - count) * 77
        head = base64.encodebytes(magic.ljust(57, b"\0"))
        return (f'Content-Type: {kind}; name="{name}"\nContent-Disposition: attachment; filename="{name}"\n'
                f"Content-Transfer-Encoding: base64\n\n").encode() + head + self.blob[start:start + count * 77]

    def body(self, topic, sender, parent):
        rng = self.rng
        count = max(1, min(60, int(rng.lognormvariate(math.log(12), 0.7))))
        parts = [f"Hi {parent[2].split()[0] if parent else 'all'},"]
        parts += rng.choices(self.paragraphs[topic], k=count)
        parts.append(f"Thanks,\n{sender[0].split()[0]}\n\n-- \n{sender[0]}\n{sender[1].split('@')[1]}")
        if parent:
            parts.append(f"On {parent[3]}, {parent[2]} wrote:\n" + "\n".join("> " + l for l in parent[4]))
        return "\n\n".join(parts) + "\n"

    def write(self, folder, stamp, flags, data):
        """Stores one message in `folder` as a Maildir file dated `stamp`."""
        self.sequence += 1
        unread_new = flags is None
        name = (f"{stamp}.M{self.rng.randrange(1_000_000)}P{4000 + self.sequence % 3000}Q{self.sequence}"
                f".bench,S={len(data)},W={len(data) + data.count(10)}" + ("" if unread_new else f":2,{flags}"))
        path = self.outdir / folder / ("new" if unread_new else "cur") / name
        with open(path, "wb") as file:
            file.write(data)
        os.utime(path, (stamp, stamp))
        self.counts[folder] += 1
        self.bytes += len(data)


def wrap(text, width=72):
    """Greedy word wrap (textwrap is too slow for millions of words)."""
    lines, current = [], ""
    for word in text.split(" "):
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    return "\n".join(lines + [current])


def encode_name(name, address):
    if name.isascii():
        return f"{name} <{address}>"
    return f"=?UTF-8?B?{base64.b64encode(name.encode()).decode()}?= <{address}>"


def rfc5322_date(stamp, offset_minutes):
    local = time.gmtime(stamp + offset_minutes * 60)
    sign = "+" if offset_minutes >= 0 else "-"
    return (f"{DAYS[local.tm_wday]}, {local.tm_mday:02d} {MONTHS[local.tm_mon - 1]} {local.tm_year} "
            f"{local.tm_hour:02d}:{local.tm_min:02d}:{local.tm_sec:02d} {sign}{abs(offset_minutes) // 60:02d}"
            f"{abs(offset_minutes) % 60:02d}")


def message(corpus, folder, topic, subject, sender, recipients, stamp, mid, parent, list_id):
    """The bytes of one message; `parent` is (id, references, name, date, excerpt) or None."""
    rng = corpus.rng
    offset = rng.choice((0, 60, 120, -300, -480, 330, 540))
    date = rfc5322_date(stamp, offset)
    text = corpus.body(topic, sender, parent)
    head = []
    if folder not in (".Sent", ".Drafts"):
        head += [f"Return-Path: <{sender[1]}>", f"Delivered-To: {ME[1]}",
                 f"Received: from mx{stamp % 9}.{sender[1].split('@')[1]} ([203.0.113.{stamp % 250}])\n"
                 f"\tby mail.bench.example (Postfix) with ESMTPS id {mid[1:11].upper()}\n"
                 f"\tfor <{ME[1]}>; {rfc5322_date(stamp + 3, 0)}"]
    head += [f"Date: {date}", f"From: {encode_name(*sender)}",
             "To: " + ",\n ".join(encode_name(*r) for r in recipients[:4])]
    if len(recipients) > 4:
        head.append("Cc: " + ",\n ".join(encode_name(*r) for r in recipients[4:]))
    head += [f"Subject: {subject}", f"Message-ID: {mid}"]
    if parent:
        references = (parent[1] + [parent[0]])[-12:]
        head += [f"In-Reply-To: {parent[0]}", "References: " + "\n ".join(references)]
    if list_id:
        head += [f"List-Id: <{list_id}>", f"List-Post: <mailto:{list_id.split('.')[0]}@lists.example.org>"]
    head += ["MIME-Version: 1.0", "X-Mailer: bench-corpus/1"]
    transfer = "7bit" if text.isascii() else "8bit"
    text_part = f"Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: {transfer}\n\n{text}"
    roll = rng.random()
    huge = roll < 0.0005
    attachments = [corpus.attachment(huge) for _ in range(1 if rng.random() < 0.8 else 2)] if roll < 0.10 else []
    if rng.random() < 0.25:
        escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        html = "<html><body>\n" + "".join(f"<p>{p}</p>\n" for p in escaped.split("\n\n")) + "</body></html>\n"
        b = f"alt{mid[1:9]}"
        text_part = (f'Content-Type: multipart/alternative; boundary="{b}"\n\n--{b}\n{text_part}\n--{b}\n'
                     f"Content-Type: text/html; charset=utf-8\nContent-Transfer-Encoding: {transfer}\n\n"
                     f"{html}\n--{b}--\n")
    if not attachments:
        return ("\n".join(head) + "\n" + text_part).encode(), text
    corpus.with_attachments += 1
    b = f"mix{mid[1:9]}"
    chunks = [("\n".join(head) + f'\nContent-Type: multipart/mixed; boundary="{b}"\n\n--{b}\n{text_part}\n').encode()]
    for part in attachments:
        chunks += [f"--{b}\n".encode(), part, b"\n"]
    chunks.append(f"--{b}--\n".encode())
    return b"".join(chunks), text


def thread(corpus, stream, budget):
    """Writes one conversation of at most `budget` messages; returns how many."""
    rng = corpus.rng
    topic = rng.choices(list(TOPIC_SHARE), weights=list(TOPIC_SHARE.values()))[0]
    if stream.startswith(".Lists.dev") or stream == ".Big":
        topic = rng.choice(("kernel", "engineering", "engineering", "product"))
    words = TOPICS[topic].split()
    subject = rng.choice(SUBJECTS[topic]).format(
        topic=rng.choice(words), Topic=rng.choice(words).capitalize(), topic2=rng.choice(words),
        q=rng.randint(1, 4), n=rng.randint(100, 9999))
    if rng.random() < 0.03:
        subject = "=?UTF-8?B?UsOpdW5pb246?= " + subject          # "Réunion:"
    list_id = {".Lists.dev": "dev.lists.example.org", ".Lists.announce": "announce.lists.example.org",
               ".Big": "firehose.lists.example.org"}.get(stream)
    length = 1 if stream == ".Drafts" or rng.random() < 0.4 else max(2, int(rng.paretovariate(1.3)) + 1)
    length = min(budget, length, 40)
    cast = rng.sample(corpus.people, rng.randint(2, 6))
    year_2025 = stream == "personal" and rng.random() < 0.45
    low, high = (YEAR_2026, END_2026) if stream == "personal" and not year_2025 else (YEAR_2025, END_2026)
    stamp = rng.randrange(low, (YEAR_2026 if year_2025 else high) - 86400 * 3)
    posted = []
    for index in range(length):
        me = stream == ".Drafts" or (stream == "personal" and index % 2 == 1 and rng.random() < 0.7)
        sender = ME if me else rng.choice(cast)
        parent = None if not posted else (posted[-1] if rng.random() < 0.8 else rng.choice(posted))
        mid = f"<{rng.getrandbits(64):016x}.{corpus.sequence + 1}@{sender[1].split('@')[1]}>"
        if me:
            recipients = cast[:rng.randint(1, 6)]
        else:
            recipients = [ME] + [p for p in cast if p is not sender][:rng.randint(0, 5)]
        folder = folder_of(stream, me, year_2025)
        full_subject = subject if parent is None else "Re: " + subject.removeprefix("Re: ")
        if list_id and parent is None:
            full_subject = f"[{list_id.split('.')[0]}] {subject}"
        elif list_id:
            full_subject = f"Re: [{list_id.split('.')[0]}] {subject}"
        data, text = message(corpus, folder, topic, full_subject, sender, recipients, stamp, mid, parent, list_id)
        corpus.write(folder, stamp, flags(rng, folder, stamp, me), data)
        excerpt = [line for line in text.split("\n")[2:10] if line and not line.startswith(">")]
        posted.append((mid, (parent[1] + [parent[0]]) if parent else [], sender[0],
                       rfc5322_date(stamp, 0), excerpt))
        stamp = min(stamp + int(rng.expovariate(1 / 14_400)) + 60, END_2026)
    return length


def folder_of(stream, me, year_2025):
    """Where a message of `stream` is filed: personal threads split between
    INBOX, .Archive.2025 and (the user's own messages) .Sent."""
    if stream != "personal":
        return stream
    return ".Sent" if me else ".Archive.2025" if year_2025 else ""


def flags(rng, folder, stamp, me):
    """Maildir info flags, or None for an unread message still in new/."""
    if folder == ".Drafts":
        return "DS"
    if me or folder in (".Sent", ".Trash", ".Archive.2025"):
        return "S"
    if stamp > END_2026 - 86400 * 7 and folder == "":
        return None
    roll = rng.random()
    return "FS" if roll < 0.02 else "RS" if roll < 0.12 else "" if roll < 0.17 else "S"


def generate(total, outdir, seed):
    corpus = Corpus(seed, outdir)
    for folder in FOLDERS:
        for sub in ("cur", "new", "tmp"):
            (outdir / folder / sub).mkdir(parents=True, exist_ok=True)
        if folder:                                  # Maildir++ marks subfolders so
            marker = outdir / folder / "maildirfolder"  # tools do not take them for accounts
            marker.touch()
            os.utime(marker, (END_2026, END_2026))
    big = BIG if total >= 2 * BIG else total // 5
    rest = total - big
    quotas = [(name, int(rest * share)) for name, share in STREAMS]
    quotas[0] = ("personal", rest - sum(q for _, q in quotas[1:]))
    for stream, quota in [(".Big", big)] + quotas:
        left = quota
        while left > 0:
            left -= thread(corpus, stream, left)
    return corpus


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("count", type=int, help="number of messages (the benchmark uses 50000)")
    parser.add_argument("outdir", type=Path, help="where to create the Maildir++ tree (must be empty or absent)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.count < 1:
        parser.error("count must be at least 1")
    if args.outdir.exists() and any(args.outdir.iterdir()):
        parser.error(f"{args.outdir} is not empty")
    started = time.monotonic()
    corpus = generate(args.count, args.outdir, args.seed)
    folders = ", ".join(f"{f or 'INBOX'} {n}" for f, n in corpus.counts.items())
    print(f"{sum(corpus.counts.values())} messages, {corpus.bytes} bytes ({corpus.bytes / 2**20:.0f} MiB), "
          f"{corpus.with_attachments} with attachments, in {args.outdir} ({folders}) "
          f"in {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    sys.exit(main())
