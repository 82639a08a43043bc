#!/usr/bin/python3
"""Checks that the servers start.sh started behave as the integration tests expect.
Reads the MAILFS_TEST_* variables of STATE_DIR/env; run by selftest.sh.
Prints "ok - …" or "FAIL - …" per check; exits 1 if any check failed.
"""
import imaplib
import os
import re
import smtplib
import socket
import ssl
import subprocess
import sys
import time
import uuid

ENV = os.environ
HOST = ENV["MAILFS_TEST_HOST"]
HERE = os.path.dirname(os.path.abspath(__file__))
CONTEXT = ssl.create_default_context(cafile=ENV["MAILFS_TEST_CA_FILE"])
FAILURES = []


def port(name):
    return int(ENV[f"MAILFS_TEST_{name}_PORT"])


def password(user):
    return ENV[f"MAILFS_TEST_{user.upper()}_PASSWORD"]


def check(description, condition, detail=""):
    print(("ok - " if condition else "FAIL - ") + description + ("" if condition else f": {detail}"))
    if not condition:
        FAILURES.append(description)


def raises(action, error_type):
    try:
        action()
    except error_type as error:
        return error
    return None


def imaps(user):
    session = imaplib.IMAP4_SSL(HOST, port("IMAPS"), ssl_context=CONTEXT, timeout=10)
    session.login(user, password(user))
    return session


def capabilities(session):
    return session.capability()[1][0].decode().split()


def listing(session):
    return [line.decode() for line in session.list()[1]]


def seed(*args):
    result = subprocess.run([sys.executable, os.path.join(HERE, "seed.py"), *args],
                            capture_output=True, text=True, timeout=60)
    return result.returncode, result.stdout.strip(), result.stderr.strip()


def ctl(action, server):
    command = [os.path.join(HERE, "ctl.sh"), ENV["MAILFS_TEST_STATE_DIR"], action, server]
    return subprocess.run(command, capture_output=True, text=True, timeout=60).returncode


def check_imap():
    session = imaps("alice")
    caps = capabilities(session)
    check("IMAPS login with the test CA offers CONDSTORE, QRESYNC and SPECIAL-USE",
          {"CONDSTORE", "QRESYNC", "SPECIAL-USE"} <= set(caps), caps)
    names = " ".join(listing(session))
    check("alice's LIST shows the generic special-use folders",
          all(use in names for use in ("\\Sent", "\\Drafts", "\\Trash", "\\Junk", "\\Archive")), names)
    status, data = session._simple_command("SELECT", "INBOX", "(CONDSTORE)")
    codes = session.untagged_responses
    check("SELECT (CONDSTORE) reports UIDVALIDITY and HIGHESTMODSEQ",
          status == "OK" and "UIDVALIDITY" in codes and "HIGHESTMODSEQ" in codes, codes)
    session.logout()
    gmail = imaps("gmail")
    lines = listing(gmail)
    expected = {"[Gmail]/All Mail": "\\All", "[Gmail]/Important": "\\Important",
                "[Gmail]/Sent Mail": "\\Sent", "[Gmail]/Drafts": "\\Drafts", "[Gmail]/Trash": "\\Trash",
                "[Gmail]/Spam": "\\Junk", "[Gmail]/Starred": "\\Flagged"}
    check("gmail's LIST shows the [Gmail]/ layout with its special-use flags",
          all(any(name in line and use in line for line in lines) for name, use in expected.items())
          and not any("\\Archive" in line for line in lines), lines)
    gmail.logout()


GMAIL_LAYOUT = {"INBOX": "", "[Gmail]/All Mail": "\\All", "[Gmail]/Important": "\\Important",
                "[Gmail]/Sent Mail": "\\Sent", "[Gmail]/Drafts": "\\Drafts", "[Gmail]/Trash": "\\Trash",
                "[Gmail]/Spam": "\\Junk", "[Gmail]/Starred": "\\Flagged"}


def namespace(session):
    session._simple_command("NAMESPACE")
    return session.untagged_responses.pop("NAMESPACE", [b""])[0].decode()


def located(user, message_id):
    """The mailboxes holding the Message-ID, sorted (seed.py locate), or None if it failed."""
    code, out, _ = seed("locate", "--user", user, "--message-id", message_id)
    return sorted(line.split("\t")[0] for line in out.splitlines()) if code == 0 else None


def check_gmailv(tmp):
    """gmailv's All Mail is a view: a message lives only while some folder holds it."""
    session = imaps("gmailv")
    folders = listed(session)
    selectable = {name: attributes for name, (attributes, _) in folders.items() if "\\noselect" not in attributes}
    check("gmailv's LIST is Gmail's layout, [Gmail]/All Mail with \\All, and nothing else",
          set(selectable) == set(GMAIL_LAYOUT) and set(folders) == set(GMAIL_LAYOUT) | {"[Gmail]"}
          and all(use.lower() in selectable[name] for name, use in GMAIL_LAYOUT.items() if use), folders)
    check("gmailv's NAMESPACE is Gmail's: one personal namespace, prefix \"\"",
          namespace(session) == '(("" "/")) NIL NIL', namespace(session))
    session.logout()
    alice = imaps("alice")
    names = listing(alice)
    check("alice's NAMESPACE and LIST show nothing of gmailv's namespaces",
          namespace(alice) == '(("" "/")) NIL NIL' and not any("All Mail" in line or "AllMailStore" in line for line in names),
          names)
    alice.logout()

    path = os.path.join(tmp, "gmailv.eml")
    ids = {}
    for case in ("archived", "expunged", "trashed"):
        ids[case], text = message("gmailv@example.test")
        with open(path, "w") as file:
            file.write(text)
        seed("append", "--user", "gmailv", path)
    check("gmailv: a message APPENDed to INBOX is in All Mail too",
          all(located("gmailv", mid) == ["INBOX", "[Gmail]/All Mail"] for mid in ids.values()),
          {case: located("gmailv", mid) for case, mid in ids.items()})
    copied = seed("copy", "--user", "gmailv", "--message-id", ids["archived"], "--to", "[Gmail]/All Mail")
    seed("expunge", "--user", "gmailv", "--message-id", ids["archived"])
    check("gmailv: COPY INBOX -> All Mail, then expunge from INBOX: the message stays in All Mail",
          copied[0] == 0 and located("gmailv", ids["archived"]) == ["[Gmail]/All Mail"],
          (copied, located("gmailv", ids["archived"])))
    seed("expunge", "--user", "gmailv", "--message-id", ids["expunged"])
    check("gmailv: expunged from INBOX, its only folder, a message is gone from All Mail too",
          located("gmailv", ids["expunged"]) == [], located("gmailv", ids["expunged"]))
    seed("move", "--user", "gmailv", "--message-id", ids["trashed"], "--to", "[Gmail]/Trash")
    check("gmailv: All Mail does not show Trash",
          located("gmailv", ids["trashed"]) == ["[Gmail]/Trash"], located("gmailv", ids["trashed"]))

    session = imaps("gmailv")
    session.select('"[Gmail]/All Mail"')
    uids = session.uid("SEARCH", "HEADER", "Message-ID", ids["archived"])[1][0].split()
    fetched = session.uid("FETCH", uids[0].decode(), "(RFC822.SIZE BODY.PEEK[HEADER])")[1] if uids else []
    header = fetched[0][1] if fetched and isinstance(fetched[0], tuple) else b""
    status, data = session._simple_command("UID", "COPY", uids[0].decode(), '"[Gmail]/Starred"') if uids else ("NO", [])
    session.logout()
    check("gmailv's All Mail answers SEARCH HEADER Message-ID, FETCH RFC822.SIZE BODY.PEEK[HEADER], "
          "and UID COPY to a folder (COPYUID)",
          len(uids) == 1 and b"RFC822.SIZE" in fetched[0][0] and ids["archived"].encode() in header
          and status == "OK" and b"COPYUID" in b" ".join(data)
          and located("gmailv", ids["archived"]) == ["[Gmail]/All Mail", "[Gmail]/All Mail", "[Gmail]/Starred"],
          (uids, fetched, status, data, located("gmailv", ids["archived"])))


def check_imap_security():
    error = raises(lambda: imaplib.IMAP4_SSL(HOST, port("IMAPS_SELFSIGNED"), ssl_context=CONTEXT, timeout=10),
                   ssl.SSLCertVerificationError)
    check("the self-signed IMAPS port fails verification", error is not None)
    plain = imaplib.IMAP4(HOST, port("IMAP_PLAIN"), timeout=10)
    check("the plain IMAP port does not offer STARTTLS", "STARTTLS" not in plain.capabilities, plain.capabilities)
    plain.logout()
    starttls = imaplib.IMAP4(HOST, port("IMAP_STARTTLS"), timeout=10)
    offered = "STARTTLS" in starttls.capabilities
    starttls.starttls(CONTEXT)
    starttls.login("bob", password("bob"))
    check("the STARTTLS port offers STARTTLS and logs in after it", offered)
    starttls.logout()
    wrong = imaplib.IMAP4_SSL(HOST, port("IMAPS"), ssl_context=CONTEXT, timeout=10)
    check("a wrong password is refused",
          raises(lambda: wrong.login("alice", "wrong"), imaplib.IMAP4.error) is not None)
    oauth = imaplib.IMAP4_SSL(HOST, port("IMAPS"), ssl_context=CONTEXT, timeout=10)
    token = f"user=gmail\x01auth=Bearer {password('gmail')}\x01\x01".encode()
    status, _ = oauth.authenticate("XOAUTH2", lambda _: token)
    check("XOAUTH2 with the password as bearer token logs in", status == "OK")
    oauth.logout()


def check_imap_nomove():
    main = imaps("alice")
    expected = [cap for cap in capabilities(main) if cap != "MOVE"]
    main.logout()
    nomove = imaplib.IMAP4_SSL(HOST, port("IMAPS_NOMOVE"), ssl_context=CONTEXT, timeout=10)
    nomove.login("alice", password("alice"))
    caps = capabilities(nomove)
    check("the no-MOVE IMAPS port offers the main port's capabilities but MOVE (UIDPLUS kept)",
          caps == expected and "UIDPLUS" in caps and "MOVE" not in caps, caps)
    marker = f"selftest-{uuid.uuid4()}"
    nomove.select("INBOX")
    nomove.uid("SEARCH", "HEADER", "Message-ID", marker)
    nomove.logout()
    rawlog = os.path.join(ENV["MAILFS_TEST_MAIL_DIR"], "alice", "rawlog-nomove")
    recorded = ""
    for name in os.listdir(rawlog):
        if name.endswith(".in"):
            with open(os.path.join(rawlog, name), errors="replace") as file:
                recorded += file.read()
    check("the no-MOVE port records what a client sends (rawlog-nomove/*.in)", marker in recorded, os.listdir(rawlog))


def delivered(user, message_id, timeout=10):
    """True once a message with that Message-ID is in the user's INBOX."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        code, out, _ = seed("list", "--user", user)
        if code == 0 and message_id in out:
            return True
        time.sleep(0.2)
    return False


def message(recipient):
    message_id = f"<{uuid.uuid4()}@example.test>"
    text = f"From: alice@example.test\r\nTo: {recipient}\r\nSubject: selftest\r\nMessage-ID: {message_id}\r\n\r\nhi\r\n"
    return message_id, text


def check_smtp():
    smtps = smtplib.SMTP_SSL(HOST, port("SMTPS"), context=CONTEXT, timeout=10)
    smtps.login("alice", password("alice"))
    first, text = message("bob@example.test")
    smtps.sendmail("alice@example.test", ["bob@example.test"], text)
    refused = raises(lambda: smtps.sendmail("alice@example.test", ["nobody@example.test"], text),
                     smtplib.SMTPRecipientsRefused)
    check("an unknown recipient gets 550 at RCPT",
          refused is not None and refused.recipients["nobody@example.test"][0] == 550, refused)
    smtps.quit()
    submission = smtplib.SMTP(HOST, port("SUBMISSION"), timeout=10)
    submission.ehlo()
    offered = submission.has_extn("starttls") and not submission.has_extn("auth")
    submission.starttls(context=CONTEXT)
    submission.login("alice@example.test", password("alice"))
    second, text = message("bob@example.test")
    submission.sendmail("alice@example.test", ["bob@example.test"], text)
    submission.quit()
    check("submission offers STARTTLS and AUTH only after it", offered)
    check("mail sent over implicit TLS lands in bob's INBOX", delivered("bob", first))
    check("mail sent over STARTTLS lands in bob's INBOX", delivered("bob", second))
    plain = smtplib.SMTP(HOST, port("SMTP_PLAIN"), timeout=10)
    plain.ehlo()
    check("the plain SMTP port does not offer STARTTLS", not plain.has_extn("starttls"))
    plain.quit()
    error = raises(lambda: smtplib.SMTP_SSL(HOST, port("SMTPS_SELFSIGNED"), context=CONTEXT, timeout=10),
                   ssl.SSLCertVerificationError)
    check("the self-signed SMTPS port fails verification", error is not None)
    check_recipient_limit()


def check_recipient_limit():
    limit = int(ENV["MAILFS_TEST_RCPT_LIMIT"])
    limited = smtplib.SMTP_SSL(HOST, port("SMTPS_RCPT_LIMIT"), context=CONTEXT, timeout=10)
    limited.login("alice", password("alice"))
    limited.ehlo()
    limited.mail("alice@example.test")
    codes = [limited.rcpt(f"bob+{n}@example.test")[0] for n in range(limit + 1)]
    limited.rset()
    limited.quit()
    check(f"the recipient-limit port takes {limit} recipients a transaction, then says 452",
          codes == [250] * limit + [452], codes)


def check_seed(tmp):
    path = os.path.join(tmp, "seed.eml")
    message_id, text = message("carol@example.test")
    with open(path, "w") as file:
        file.write(text)
    code, out, err = seed("append", "--user", "carol", "--flags", "\\Seen", path)
    check("seed.py append prints UIDVALIDITY and UID", code == 0 and len(out.split()) == 2, err)
    seed("flag", "--user", "carol", "--message-id", message_id, "--add", "\\Flagged")
    code, out, _ = seed("list", "--user", "carol")
    check("seed.py flag sets a flag", "\\Flagged" in out and "\\Seen" in out, out)
    code, before, _ = seed("reset-uidvalidity", "--user", "carol")
    code, after, _ = seed("list", "--user", "carol")
    old, new = (before.split() + ["", ""])[:2]
    check("seed.py reset-uidvalidity changes UIDVALIDITY and keeps the message",
          code == 0 and old != new and message_id in after, (before, after))
    seed("move", "--user", "carol", "--message-id", message_id, "--to", "Archive")
    code, out, _ = seed("count", "--user", "carol", "--mailbox", "Archive")
    check("seed.py move moves the message", out == "1", out)
    seed("expunge", "--user", "carol", "--mailbox", "Archive", "--message-id", message_id)
    code, out, _ = seed("count", "--user", "carol", "--mailbox", "Archive")
    check("seed.py expunge removes it", out == "0", out)
    seed("create-mailbox", "--user", "carol", "Selftest Ä")
    seed("append", "--user", "carol", "--mailbox", "Selftest Ä", path)
    code, out, _ = seed("locate", "--user", "carol", "--message-id", message_id)
    check("seed.py locate names the mailbox that holds a message", code == 0 and out.startswith("Selftest Ä\t"), out)
    code, _, _ = seed("delete-mailbox", "--user", "carol", "Selftest Ä")
    _, out, _ = seed("locate", "--user", "carol", "--message-id", message_id)
    check("seed.py delete-mailbox deletes it with its messages", code == 0 and out == "", out)


def refuses_connections(port_name):
    with socket.socket() as sock:
        return sock.connect_ex((HOST, port(port_name))) != 0


def check_restarts():
    for action in ("kill", "stop"):
        ctl(action, "dovecot")
        down = refuses_connections("IMAPS")
        started = ctl("start", "dovecot") == 0
        imaps("alice").logout()
        check(f"ctl.sh {action} + start dovecot: down, then back", down and started)
    ctl("stop", "postfix")
    down = refuses_connections("SMTPS")
    started = ctl("start", "postfix") == 0
    smtplib.SMTP_SSL(HOST, port("SMTPS"), context=CONTEXT, timeout=10).quit()
    check("ctl.sh stop + start postfix: down, then back", down and started)


# What each other IMAP server kind must offer (True) or lack (False) after login.
KIND_CAPABILITIES = {
    "cyrus": {"IDLE": True, "UIDPLUS": True, "MOVE": True, "SPECIAL-USE": True, "CONDSTORE": True},
    "cyrusalt": {"IDLE": True, "UIDPLUS": True, "MOVE": True, "SPECIAL-USE": True, "CONDSTORE": True},
    "courier": {"IDLE": True, "UIDPLUS": True, "MOVE": False, "SPECIAL-USE": False, "CONDSTORE": False},
}
GENERIC_FOLDERS = ("Sent", "Drafts", "Trash", "Junk", "Archive")
IDLE_DELAY_LIMIT_SECONDS = 5


def other_kinds():
    return [kind for kind in ENV["MAILFS_TEST_IMAP_SERVERS"].split() if kind != "dovecot"]


def kind_port(kind):
    return port("IMAPS") if kind == "dovecot" else port(f"{kind.upper()}_IMAPS")


def kind_login(kind, user, login=None):
    session = imaplib.IMAP4_SSL(HOST, kind_port(kind), ssl_context=CONTEXT, timeout=10)
    session.login(login or user, password(user))
    return session


def listed(session):
    """name -> (attributes in lower case, delimiter) of LIST "" "*"."""
    folders = {}
    for line in listing(session):
        match = re.match(r'\(([^)]*)\) "([^"]*)" "?(.*?)"?$', line)
        if match:
            folders[match.group(3)] = (match.group(1).lower().split(), match.group(2))
    return folders


def check_kind_namespace(kind):
    prefix, delimiter = ENV[f"MAILFS_TEST_{kind.upper()}_PREFIX"], ENV[f"MAILFS_TEST_{kind.upper()}_DELIMITER"]
    session = kind_login(kind, "alice")
    caps = capabilities(session)
    expected = KIND_CAPABILITIES[kind]
    check(f"{kind}: CAPABILITY " + ", ".join(("" if has else "no ") + cap for cap, has in expected.items()),
          all((cap in caps) == has for cap, has in expected.items()), caps)
    folders = listed(session)
    names = {prefix + name: name for name in GENERIC_FOLDERS}
    check(f"{kind}: LIST shows INBOX and {', '.join(names)} with delimiter {delimiter!r}",
          "INBOX" in folders and set(names) <= set(folders)
          and all(delim == delimiter for _, delim in folders.values()), folders)
    special = all(f"\\{name.lower()}" in folders.get(full, ([], ""))[0] for full, name in names.items())
    no_special = not any(attribute in ("\\sent", "\\drafts", "\\trash", "\\junk", "\\archive")
                         for attributes, _ in folders.values() for attribute in attributes)
    if expected["SPECIAL-USE"]:
        check(f"{kind}: the folders carry their special-use attributes", special, folders)
    else:
        check(f"{kind}: no folder carries a special-use attribute", no_special, folders)
    session.logout()
    marker = f"<{uuid.uuid4()}@example.test>"
    with_domain = kind_login(kind, "alice", "alice@example.test")
    status, _ = with_domain.append("INBOX", None, None, f"Message-ID: {marker}\r\nSubject: domain\r\n\r\nhi\r\n".encode())
    with_domain.logout()
    code, out, _ = seed("list", "--server", kind, "--user", "alice")
    check(f"{kind}: alice@example.test logs in to alice's mailboxes", status == "OK" and marker in out, out)


def check_kind_bare_lf(kind):
    session = kind_login(kind, "carol")
    # Not session.append(): imaplib turns every bare LF into CRLF.
    session.literal = b"Subject: bare LF\nMessage-ID: <lf@example.test>\n\nhi\n"
    status, data = session._simple_command("APPEND", "INBOX")
    session.logout()
    if kind.startswith("cyrus"):
        check(f"{kind}: APPEND of a bare-LF message is refused", status == "NO", data)
    else:
        print(f"# {kind}: APPEND of a bare-LF message: {status} {data}")


def idle_delay(kind, user):
    """Seconds from another session's APPEND to the EXISTS an IDLE session gets, or None."""
    watcher = kind_login(kind, user)
    watcher.select("INBOX")
    tag = watcher._new_tag()
    watcher.send(tag + b" IDLE\r\n")
    if not watcher.readline().startswith(b"+"):
        return None
    writer = kind_login(kind, user)
    started = time.monotonic()
    writer.append("INBOX", None, None, f"Message-ID: <{uuid.uuid4()}@example.test>\r\nSubject: idle\r\n\r\nhi\r\n".encode())
    watcher.sock.settimeout(IDLE_DELAY_LIMIT_SECONDS)
    delay = None
    try:
        while delay is None:
            if b"EXISTS" in watcher.readline():
                delay = time.monotonic() - started
    except (socket.timeout, OSError):
        pass
    writer.logout()
    watcher.shutdown()
    return delay


def check_kind_idle(kind):
    delay = idle_delay(kind, "carol")
    text = f"{delay:.3f}s" if delay is not None else "none"
    check(f"{kind}: IDLE reports another session's APPEND within {IDLE_DELAY_LIMIT_SECONDS}s ({text})", delay is not None)


def check_courier_users():
    folders = listed(kind_login("courier", "deleteditems"))
    check("courier: deleteditems has INBOX.Deleted Items and no INBOX.Trash",
          "INBOX.Deleted Items" in folders and "INBOX.Trash" not in folders, folders)
    folders = listed(kind_login("courier", "notrash"))
    check("courier: notrash has no Trash of any name",
          not any("trash" in name.lower() or "deleted" in name.lower() for name in folders), folders)


def check_kind_seed(kind, tmp):
    path = os.path.join(tmp, f"seed-{kind}.eml")
    message_id, text = message("carol@example.test")
    with open(path, "w") as file:
        file.write(text)
    base = ("--server", kind, "--user", "carol")
    steps = [seed("create-mailbox", *base, "Parent/Child", "Parent/Child"),
             seed("append", *base, path),
             seed("copy", *base, "--message-id", message_id, "--to", "Archive"),
             seed("move", *base, "--message-id", message_id, "--to", "Parent/Child"),
             seed("flag", *base, "--mailbox", "Parent/Child", "--message-id", message_id, "--add", "\\Flagged")]
    code, out, _ = seed("locate", *base, "--message-id", message_id)
    located = sorted(line.split("\t")[0] for line in out.splitlines())
    check(f"{kind}: seed.py create-mailbox, append, copy, move (COPYUID printed), flag, locate in tests' names",
          all(step[0] == 0 for step in steps) and len(steps[3][1].split()) == 3 and "?" not in steps[3][1]
          and located == ["Archive", "Parent/Child"] and "\\Flagged" in out, (steps, out))
    seed("expunge", *base, "--mailbox", "Archive", "--message-id", message_id)
    code, _, _ = seed("delete-mailbox", *base, "Parent/Child")
    _, out, _ = seed("locate", *base, "--message-id", message_id)
    check(f"{kind}: seed.py expunge and delete-mailbox remove it", code == 0 and out == "", out)
    code, _, err = seed("reset-uidvalidity", *base)
    check(f"{kind}: seed.py reset-uidvalidity says it is Dovecot-only", code == 1 and "Dovecot" in err, err)


def kind_refuses(kind):
    with socket.socket() as sock:
        return sock.connect_ex((HOST, kind_port(kind))) != 0


def check_kind_restarts(kind):
    for action in ("stop", "kill"):
        ctl(action, kind)
        down = kind_refuses(kind)
        started = time.monotonic()
        up = ctl("start", kind) == 0
        seconds = time.monotonic() - started
        kind_login(kind, "alice").logout()
        check(f"ctl.sh {action} + start {kind}: down, then back ({seconds:.1f}s)", down and up)
    env = open(os.path.join(ENV["MAILFS_TEST_STATE_DIR"], "env")).read()
    pid = re.search(rf"MAILFS_TEST_{kind.upper()}_PID='(\d+)'", env)
    check(f"ctl.sh start {kind} updates its pid in the env file",
          pid is not None and os.path.exists(f"/proc/{pid.group(1)}"), pid)


def check_other_kinds(tmp):
    print(f"# IMAP servers: {ENV['MAILFS_TEST_IMAP_SERVERS']}")
    delay = idle_delay("dovecot", "carol")
    print(f"# dovecot: IDLE delay {delay:.3f}s" if delay is not None else "# dovecot: no IDLE push")
    for kind in other_kinds():
        for step in (check_kind_namespace, check_kind_bare_lf, check_kind_idle,
                     lambda kind: check_kind_seed(kind, tmp), check_kind_restarts):
            try:
                step(kind)
            except Exception as error:  # as in main: a crash is a failed check with its reason
                check(f"{kind}: {getattr(step, '__name__', 'step')} ran to the end", False, repr(error))
    if "courier" in other_kinds():
        check_courier_users()


def main():
    for step in (check_imap, lambda: check_gmailv(sys.argv[1]), check_imap_security, check_imap_nomove, check_smtp,
                 lambda: check_seed(sys.argv[1]), check_restarts,
                 lambda: check_other_kinds(sys.argv[1])):
        try:
            step()
        except Exception as error:  # a crash is a failed check with its reason, not a traceback
            check(f"{getattr(step, '__name__', 'step')} ran to the end", False, repr(error))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
