"""The HTML messages of the comparison with w3m: every message of the third-party corpora
(../shared/corpora) and of the demo mailbox whose text is HTML (an HTML-only message, or an
alternative without a usable plain part), written out twice: the message as an .eml for
`mailfs show`, and its decoded HTML as a .html file for `w3m -dump`."""
import email
import email.policy
import mailbox
from pathlib import Path


def text_html_part(message):
    """The text/html part a reader reads, or None when the message has a plain text."""
    plain = html = None
    for part in message.walk():
        if part.is_attachment() or part.get_filename():
            continue
        kind = part.get_content_type()
        if kind == "text/plain" and plain is None:
            try:
                plain = part.get_content()
            except Exception:
                plain = ""
        elif kind == "text/html" and html is None:
            html = part
    return html if html is not None and not (plain or "").strip() else None


def raw_messages(corpora: Path, demo: Path):
    """(name, bytes) of every message of the corpora and the demo mailbox."""
    for path in sorted(corpora.rglob("*")):
        if path.is_file() and not path.name.endswith((".md", ".expected", ".txt", ".json", ".xml")):
            yield str(path.relative_to(corpora)), path.read_bytes()
    for path in sorted(demo.rglob("*.mbox")):
        box = mailbox.mbox(path, create=False)
        for index, key in enumerate(box.keys()):
            yield f"demo/{path.relative_to(demo)}#{index}", box.get_bytes(key)


def write(corpora: Path, demo: Path, directory: Path) -> int:
    """Writes NNNN.eml and NNNN.html pairs into directory; returns how many."""
    directory.mkdir(parents=True, exist_ok=True)
    count = 0
    for name, raw in raw_messages(corpora, demo):
        try:
            message = email.message_from_bytes(raw, policy=email.policy.default)
            part = text_html_part(message)
            html = part.get_content() if part is not None else None
        except Exception:
            continue
        if not isinstance(html, str) or not html.strip():
            continue
        count += 1
        (directory / f"{count:04d}.eml").write_bytes(raw)
        (directory / f"{count:04d}.html").write_text(html, encoding="utf-8")
        (directory / f"{count:04d}.source").write_text(name + "\n")
    return count
