#!/usr/bin/env python3
"""Writes seed inputs for one fuzz target from the shared corpora (../shared/corpora/README.md):
whole messages for the message parsers, mailboxes for the splitter, header values for the
field parsers, server lines from imaptest's scripts for the IMAP parser.

    corpus-seeds.py TARGET CORPORA_DIR OUT_DIR
"""
import hashlib
import pathlib
import re
import sys

HEADER_FIELDS = {
    "fuzz-date": re.compile(rb"^(?:Date|Resent-Date):[ \t]*(.*)$", re.I),
    "fuzz-address": re.compile(rb"^(?:From|To|Cc|Bcc|Reply-To|Sender):[ \t]*(.*)$", re.I),
    "fuzz-header-words": re.compile(rb"^(?:Subject|Content-Type|Content-Disposition):[ \t]*(.*)$", re.I),
}


def message_files(corpora):
    """The same message files as the tests' CorpusFiles.allMessageFiles."""
    def under(folder, keep):
        base = corpora / folder
        return [p for p in sorted(base.rglob("*")) if p.is_file() and keep(p.name)] if base.is_dir() else []
    not_messages = {"SOURCE.md", "LICENSE", "LICENSE.txt", "COPYING", "THREADS.expected", "PARENTS.expected"}
    return (under("cpython-test-email", lambda n: n.startswith("msg_"))
            + under("mime4j", lambda n: n.endswith(".msg") or n.startswith("mbox.rlug"))
            + under("stalwart-mail-parser/eml", lambda n: n.endswith(".eml"))
            + under("notmuch-default/mail", lambda n: n not in not_messages)
            + under("notmuch-misc", lambda n: n not in not_messages and not n.endswith((".expected", ".txt", ".md")))
            + under("imaptest/tests", lambda n: n.endswith(".mbox")))


def unfolded_header_lines(raw):
    header = re.split(rb"\r?\n\r?\n", raw, maxsplit=1)[0]
    return re.sub(rb"\r?\n[ \t]", b" ", header).splitlines()


def seeds(target, corpora):
    files = message_files(corpora)
    if target in ("fuzz-message", "fuzz-outgoing"):
        return [p.read_bytes() for p in files if p.stat().st_size <= 256 * 1024]
    if target == "fuzz-mbox":
        return [p.read_bytes() for p in files if p.name.endswith(".mbox") or p.name.startswith("mbox.")]
    if target in HEADER_FIELDS:
        pattern = HEADER_FIELDS[target]
        return [m.group(1) for p in files for line in unfolded_header_lines(p.read_bytes())
                if (m := pattern.match(line))]
    if target == "fuzz-imap-response":
        scripts = [p for p in sorted((corpora / "imaptest/tests").glob("*")) if p.is_file() and "." not in p.name]
        # The first byte is the chunk size the target feeds the framer with.
        # imaptest's `* ...` lines are the untagged responses a server sends.
        return [b"\x40" + b"".join(line.rstrip(b"\r") + b"\r\n" for line in p.read_bytes().splitlines()
                                   if line.startswith(b"* ")) + b"A1 OK done\r\n"
                for p in scripts]
    return []


def main():
    target, corpora, out = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for seed in seeds(target, corpora):
        (out / hashlib.sha1(seed).hexdigest()).write_bytes(seed)
        count += 1
    print(count)


if __name__ == "__main__":
    main()
