"""What the corpus oracles share: reading every message of the files named, and printing
one JSON object {"messages": [{"file", "index", <field>: ...}]} in the order given (a
mailbox's in mailbox.mbox order). A FILE ending in .mbox or named mbox.* is a mailbox.
"""
import json
import mailbox
import sys


def is_mailbox(path):
    name = path.rsplit("/", 1)[-1]
    return name.endswith(".mbox") or name.startswith("mbox.")


def messages(path):
    if is_mailbox(path):
        box = mailbox.mbox(path, create=False)
        return [box.get_bytes(key) for key in box.keys()]
    with open(path, "rb") as file:
        return [file.read()]


def run(field, read):
    """Prints `read(raw)` of every message under `field`; a message Python cannot read is
    reported with its error, not compared."""
    result = []
    for path in sys.argv[1:]:
        for index, raw in enumerate(messages(path)):
            entry = {"file": path, "index": index}
            try:
                entry[field] = read(raw)
            except Exception as error:
                entry["error"] = f"{type(error).__name__}: {error}"
            result.append(entry)
    json.dump({"messages": result}, sys.stdout, ensure_ascii=True)
