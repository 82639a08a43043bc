#!/usr/bin/python3
"""seed.py -- "a second client" for the integration tests: changes a test server's mail the
way another mail program would, over IMAPS verified with the test CA.

  seed.py append  --user alice [--mailbox M] [--flags '\\Seen'] [--date D] FILE|DIR...
                  prints "UIDVALIDITY UID" per message
  seed.py flag    --user alice [--mailbox M] (--uids 1,3:5 | --message-id ID)
                  (--add F | --remove F | --set F)
  seed.py expunge --user alice [--mailbox M] (--uids … | --message-id …)
  seed.py move    --user alice [--mailbox M] (--uids … | --message-id …) --to DEST
                  prints the COPYUID code: "UIDVALIDITY SOURCE-UIDS DEST-UIDS"
  seed.py copy    --user alice [--mailbox M] (--uids … | --message-id …) --to DEST
                  the same server message in a second mailbox; prints the COPYUID code
  seed.py count   --user alice [--mailbox M] [--at-least N [--timeout S]]
  seed.py list    --user alice [--mailbox M]     "UID<TAB>FLAGS<TAB>MESSAGE-ID<TAB>SUBJECT"
  seed.py create-mailbox --user alice NAME...
  seed.py delete-mailbox --user alice NAME...    (its messages go with it)
  seed.py locate  --user alice --message-id ID   every mailbox holding it: "MAILBOX<TAB>UID<TAB>FLAGS"
  seed.py reset-uidvalidity --user alice [--mailbox M] [--keep-uids]
                  prints "OLD NEW" UIDVALIDITY (Dovecot only: it runs doveadm)

On Dovecot, --user gmailv has Gmail's All Mail ("[Gmail]/All Mail", a view over every folder but
Trash and Spam): locate lists it once per copy it shows, and copy/append into it print "?" for
the UIDs (a virtual mailbox sends no COPYUID or APPENDUID).

Every subcommand takes --server dovecot|cyrus|cyrusalt|courier (default dovecot): the server
kind to talk to. Mailbox names are given, and printed, as on Dovecot: "/" between levels and
no personal prefix ("Archive", "Parent/Child"; "INBOX" is INBOX); seed.py translates them with
the kind's MAILFS_TEST_<KIND>_PREFIX and _DELIMITER (on courier: "INBOX.Archive",
"INBOX.Parent.Child"). A name must not contain the server's own delimiter. Without MOVE
(Courier), move is UID COPY + UID STORE \\Deleted + UID EXPUNGE.

--host, --port, --ca-file and --password default to 127.0.0.1 and the MAILFS_TEST_* variables
of start.sh's env file (MAILFS_TEST_IMAPS_PORT or MAILFS_TEST_<KIND>_IMAPS_PORT,
MAILFS_TEST_CA_FILE, MAILFS_TEST_<USER>_PASSWORD).
Exit status: 0 done, 1 the server refused or a wait timed out (reason on stderr), 2 usage.
"""
import argparse
import os
import re
import sys
import time
from email.parser import BytesHeaderParser

sys.dont_write_bytecode = True  # no __pycache__ in the repository for the modules below
import seed_imap  # noqa: E402
from seed_imap import Namespace, SeedError, check, quote, select  # noqa: E402
from seed_reset import reset_uidvalidity  # noqa: E402

SERVERS = ("dovecot", "cyrus", "cyrusalt", "courier")
UID_SET = re.compile(r"^[0-9*]+(:[0-9*]+)?(,[0-9*]+(:[0-9*]+)?)*$")


def selected_uids(session, args):
    """The UID set the command acts on: --uids as given, or the UIDs with that Message-ID."""
    if args.uids:
        return args.uids
    uids = seed_imap.uid_search(session, ["HEADER", "Message-ID", seed_imap.quote_string(args.message_id)])
    if not uids:
        raise SeedError(f"no message with Message-ID {args.message_id} in {args.mailbox}")
    return ",".join(str(uid) for uid in uids)


def message_files(paths):
    """Every file named, and every regular file of a directory named, in name order."""
    for path in paths:
        if os.path.isdir(path):
            for name in sorted(os.listdir(path)):
                if os.path.isfile(os.path.join(path, name)):
                    yield os.path.join(path, name)
        else:
            yield path


def cmd_append(session, args):
    date = f'"{args.date}"' if args.date else None
    flags = f"({args.flags})" if args.flags else None
    for path in message_files(args.files):
        with open(path, "rb") as file:
            data = check(session.append(quote(args.mailbox), flags, date, file.read()))
        print(" ".join(seed_imap.response_code(data, "APPENDUID") or ["?", "?"]))


def cmd_flag(session, args):
    select(session, args.mailbox)
    if args.add is not None:
        change, flags = "+FLAGS.SILENT", args.add
    elif args.remove is not None:
        change, flags = "-FLAGS.SILENT", args.remove
    else:
        change, flags = "FLAGS.SILENT", args.set
    check(session.uid("STORE", selected_uids(session, args), change, f"({flags})"))


def cmd_expunge(session, args):
    select(session, args.mailbox)
    uids = selected_uids(session, args)
    check(session.uid("STORE", uids, "+FLAGS.SILENT", r"(\Deleted)"))
    check(session.uid("EXPUNGE", uids))


def cmd_move(session, args):
    transfer(session, args, "MOVE")


def cmd_copy(session, args):
    transfer(session, args, "COPY")


def transfer(session, args, command):
    select(session, args.mailbox)
    uids = selected_uids(session, args)
    # Without MOVE (RFC 6851) a move is what a client does instead: copy, mark, expunge those.
    emulate = command == "MOVE" and "MOVE" not in seed_imap.capabilities(session)
    # Not session.uid(): for COPY it drops the tagged answer, which holds COPYUID.
    data = check(session._simple_command("UID", "COPY" if emulate else command, uids, quote(args.to)))
    code = seed_imap.response_code(data, "COPYUID")
    code = code or seed_imap.response_code(session.untagged_responses.get("OK", []), "COPYUID")
    if emulate:
        check(session.uid("STORE", uids, "+FLAGS.SILENT", r"(\Deleted)"))
        check(session.uid("EXPUNGE", uids))
    print(" ".join(code or ["?", "?", "?"]))


def message_count(session, mailbox):
    data = check(session.status(quote(mailbox), "(MESSAGES)"))
    match = re.search(rb"MESSAGES (\d+)", b" ".join(data))
    return int(match.group(1)) if match else 0


def cmd_count(session, args):
    deadline = time.monotonic() + args.timeout
    count = message_count(session, args.mailbox)
    while args.at_least is not None and count < args.at_least:
        if time.monotonic() > deadline:
            raise SeedError(f"{args.mailbox} has {count} messages, not {args.at_least}, after {args.timeout}s")
        time.sleep(0.1)
        count = message_count(session, args.mailbox)
    print(count)


def cmd_list(session, args):
    select(session, args.mailbox, readonly=True)
    items = "(UID FLAGS BODY.PEEK[HEADER.FIELDS (MESSAGE-ID SUBJECT)])"
    for item in check(session.uid("FETCH", "1:*", items)):
        if not isinstance(item, tuple):
            continue
        uid = re.search(rb"UID (\d+)", item[0])
        flags = re.search(rb"FLAGS \(([^)]*)\)", item[0])
        headers = BytesHeaderParser().parsebytes(item[1])
        fields = [uid.group(1).decode() if uid else "?", flags.group(1).decode() if flags else "",
                  headers.get("Message-ID", ""), headers.get("Subject", "")]
        print("\t".join(" ".join(str(field).split()) for field in fields))


def cmd_create_mailbox(session, args):
    for name in args.names:
        status, data = session.create(quote(name))
        # Courier and Cyrus refuse an existing name without the ALREADYEXISTS code (RFC 5530).
        if status != "OK" and seed_imap.response_code(data, "ALREADYEXISTS") is None \
                and name not in mailbox_names(session):
            check((status, data))


def cmd_delete_mailbox(session, args):
    for name in args.names:
        check(session.delete(quote(name)))


def mailbox_names(session):
    """Every selectable mailbox of the account as the server names it, decoded from modified UTF-7."""
    names = []
    for line in check(session.list('""', '"*"')):
        match = re.match(rb'\(([^)]*)\) (?:"[^"]*"|NIL) (.*)$', line or b"")
        if not match or b"\\Noselect" in match.group(1) or b"\\NonExistent" in match.group(1):
            continue
        name = match.group(2).decode()
        if name.startswith('"'):
            name = name[1:-1].replace('\\"', '"').replace("\\\\", "\\")
        names.append(seed_imap.decode_mutf7(name))
    return names


def cmd_locate(session, args):
    criteria = ["HEADER", "Message-ID", seed_imap.quote_string(args.message_id)]
    for name in mailbox_names(session):
        try:
            select(session, name, readonly=True)
        except SeedError:
            continue  # deleted by another client since LIST: it holds nothing
        for uid in seed_imap.uid_search(session, criteria):
            data = check(session.uid("FETCH", str(uid), "(FLAGS)"))
            flags = re.search(rb"FLAGS \(([^)]*)\)", b" ".join(d for d in data if isinstance(d, bytes)))
            print(f"{args.namespace.from_server(name)}\t{uid}\t{flags.group(1).decode() if flags else ''}")


def cmd_reset_uidvalidity(session, args):
    if args.server != "dovecot":
        raise SeedError(f"works on Dovecot only (it runs doveadm), not on {args.server}")
    old, new = reset_uidvalidity(session, args)
    print(old, new)


def parser():
    env = os.environ
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--server", choices=SERVERS, default="dovecot")
    common.add_argument("--host", default="127.0.0.1")
    common.add_argument("--port", type=int, help="default: the --server kind's IMAPS port")
    common.add_argument("--ca-file", default=env.get("MAILFS_TEST_CA_FILE"))
    common.add_argument("--user", required=True)
    common.add_argument("--password")
    common.add_argument("--mailbox", default="INBOX")
    which = argparse.ArgumentParser(add_help=False)
    group = which.add_mutually_exclusive_group(required=True)
    group.add_argument("--uids", type=uid_set)
    group.add_argument("--message-id")
    top = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = top.add_subparsers(dest="command", required=True)
    append = commands.add_parser("append", parents=[common])
    append.add_argument("--flags")
    append.add_argument("--date", help='IMAP date-time, e.g. "01-Jan-2024 10:00:00 +0000"')
    append.add_argument("files", nargs="+")
    flag = commands.add_parser("flag", parents=[common, which])
    change = flag.add_mutually_exclusive_group(required=True)
    for name in ("--add", "--remove", "--set"):
        change.add_argument(name)
    commands.add_parser("expunge", parents=[common, which])
    commands.add_parser("move", parents=[common, which]).add_argument("--to", required=True)
    commands.add_parser("copy", parents=[common, which]).add_argument("--to", required=True)
    count = commands.add_parser("count", parents=[common])
    count.add_argument("--at-least", type=int)
    count.add_argument("--timeout", type=float, default=10.0)
    commands.add_parser("list", parents=[common])
    commands.add_parser("create-mailbox", parents=[common]).add_argument("names", nargs="+")
    commands.add_parser("delete-mailbox", parents=[common]).add_argument("names", nargs="+")
    commands.add_parser("locate", parents=[common]).add_argument("--message-id", required=True)
    reset = commands.add_parser("reset-uidvalidity", parents=[common])
    reset.add_argument("--keep-uids", action="store_true")
    reset.add_argument("--dovecot-config", default=env.get("MAILFS_TEST_DOVECOT_CONFIG"))
    return top


def uid_set(text):
    if not UID_SET.match(text):
        raise argparse.ArgumentTypeError(f"not a UID set: {text}")
    return text


def describe(error):
    """The reason for a failure, with imaplib's bytes answers as text."""
    if error.args and isinstance(error.args[0], bytes):
        return error.args[0].decode(errors="replace")
    return str(error)


def server_port(server):
    """The IMAPS port of a server kind from start.sh's env file (Dovecot's main one for dovecot)."""
    name = "MAILFS_TEST_IMAPS_PORT" if server == "dovecot" else f"MAILFS_TEST_{server.upper()}_IMAPS_PORT"
    if name not in os.environ:
        sys.exit(f"seed.py: --port or {name} (start.sh's env file: was {server} started?) is needed")
    return int(os.environ[name])


def translate_names(args):
    """The mailbox arguments as the server names them; args.namespace translates back."""
    args.namespace = Namespace.of(args.server, os.environ)
    args.mailbox = args.namespace.to_server(args.mailbox)
    if getattr(args, "to", None):
        args.to = args.namespace.to_server(args.to)
    if getattr(args, "names", None):
        args.names = [args.namespace.to_server(name) for name in args.names]


def main():
    args = parser().parse_args()
    args.port = args.port or server_port(args.server)
    translate_names(args)
    args.password = args.password or os.environ.get(f"MAILFS_TEST_{args.user.upper()}_PASSWORD")
    if not args.password or not args.ca_file:
        sys.exit("seed.py: --password and --ca-file (or start.sh's env file) are needed")
    try:
        session = seed_imap.connect(args)
        try:
            globals()["cmd_" + args.command.replace("-", "_")](session, args)
        finally:
            session.logout()
    except (SeedError, OSError, seed_imap.imaplib.IMAP4.error) as error:
        print(f"seed.py {args.command}: {describe(error)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
