"""How seed.py forces a UIDVALIDITY change in the test Dovecot, as after a server rebuild.

IMAP has no command for it, so this uses Dovecot's own tool:
`doveadm mailbox update --uid-validity N` gives the mailbox a new UIDVALIDITY in place, any
mailbox including INBOX, with the server running; sessions that have it selected are
disconnected ("IMAP session state is inconsistent, please relogin"), as with a real reset.
Unless --keep-uids, every message is first appended again (same bytes, flags and INTERNALDATE)
and the originals expunged, so the messages also get new UIDs: a client that keeps trusting
its old UIDs then finds nothing where it expects it.
"""
import re
import subprocess

from seed_imap import SeedError, check, quote, select


def reset_uidvalidity(session, args):
    """Returns (old, new) UIDVALIDITY of args.mailbox."""
    if not args.dovecot_config:
        raise SeedError("--dovecot-config (or MAILFS_TEST_DOVECOT_CONFIG) is needed")
    old, count = select(session, args.mailbox)
    if count and not args.keep_uids:
        renumber(session, args.mailbox)
    new = old % 0xFFFFFFFF + 1
    command = ["doveadm", "-c", args.dovecot_config, "mailbox", "update", "-u", args.user,
               "--uid-validity", str(new), args.mailbox]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise SeedError(f"{' '.join(command)}: {result.stderr.strip()}")
    return old, new


def renumber(session, mailbox):
    """Appends a copy of every message of the selected mailbox, then expunges the originals."""
    originals = check(session.uid("SEARCH", "ALL"))[0].decode()
    uid_set = ",".join(originals.split())
    metadata = fetch_metadata(session, uid_set)
    for uid, body in fetch_bodies(session, uid_set):
        flags, date = metadata.get(uid, ("", None))
        check(session.append(quote(mailbox), f"({flags})", date, body))
    check(session.uid("STORE", uid_set, "+FLAGS.SILENT", r"(\Deleted)"))
    check(session.uid("EXPUNGE", uid_set))


def fetch_metadata(session, uid_set):
    """uid -> (flags without \\Recent, quoted INTERNALDATE)."""
    metadata = {}
    for line in check(session.uid("FETCH", uid_set, "(UID FLAGS INTERNALDATE)")):
        text = line.decode() if isinstance(line, bytes) else ""
        uid = re.search(r"UID (\d+)", text)
        flags = re.search(r"FLAGS \(([^)]*)\)", text)
        date = re.search(r'INTERNALDATE ("[^"]*")', text)
        if uid and flags and date:
            kept = [flag for flag in flags.group(1).split() if flag.lower() != "\\recent"]
            metadata[int(uid.group(1))] = (" ".join(kept), date.group(1))
    return metadata


def fetch_bodies(session, uid_set):
    """(uid, raw message bytes) in UID order."""
    for item in check(session.uid("FETCH", uid_set, "(UID BODY.PEEK[])")):
        if isinstance(item, tuple):
            uid = re.search(rb"UID (\d+)", item[0])
            if uid is None:
                raise SeedError("FETCH answer without UID")
            yield int(uid.group(1)), item[1]
