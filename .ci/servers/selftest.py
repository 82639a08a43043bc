#!/usr/bin/python3
"""Checks that the servers start.sh started behave as the integration tests expect.
Reads the MAILFS_TEST_* variables of STATE_DIR/env; run by selftest.sh.
Prints "ok - …" or "FAIL - …" per check; exits 1 if any check failed.
"""
import imaplib
import os
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


def main():
    for step in (check_imap, check_imap_security, check_imap_nomove, check_smtp, lambda: check_seed(sys.argv[1]), check_restarts):
        try:
            step()
        except Exception as error:  # a crash is a failed check with its reason, not a traceback
            check(f"{getattr(step, '__name__', 'step')} ran to the end", False, repr(error))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
