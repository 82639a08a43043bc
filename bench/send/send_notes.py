"""Method notes under the tables: what was measured, how, on what."""
import os
import statistics
import subprocess

import msmtp_side
from figures import median, seconds


def postfix_version():
    try:
        done = subprocess.run(["postconf", "-d", "-h", "mail_version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return done.stdout.strip() or "unknown"


def spread(samples, key):
    """Every sample of KEY in run order, so the spread behind a median is visible."""
    return ", ".join(seconds(sample.get(key)) for sample in samples)


def samples_line(result):
    parts = [(label, result.get(side, []), key) for label, side, key in (
        ("mailfs cp returned → accepted", "mailfs_one", "accepted"),
        ("msmtp launched → exited", "msmtp_one", "exited"),
        ("mailfs cp returned → in INBOX", "mailfs_one", "delivered"),
        ("msmtp launched → in INBOX", "msmtp_one", "delivered"),
        ("mailfs batch → all in INBOX", "mailfs_bulk", "delivered"),
        ("msmtp batch → all in INBOX", "msmtp_bulk", "delivered"))]
    shown = [f"{label} {spread(samples, key)}" for label, samples, key in parts if samples]
    return "Samples in run order: " + "; ".join(shown) + "." if shown else None


def pace_line(result):
    """Why a batch takes what it takes: the sender's pace against one message's steps."""
    bulk, single = result.get("mailfs_bulk"), result.get("mailfs_one")
    if not bulk or not single:
        return None
    pace, accepted = median(bulk, "pace"), median(single, "accepted")
    saved = statistics.median(sample["saved"] - sample["accepted"] for sample in single)
    return (f"Where a batch's time goes: mailfs accepts one message every {seconds(pace)} (median pace), about "
            f"one message's cp → accepted ({seconds(accepted)}) plus its accepted → Sent copy saved "
            f"({seconds(saved)}, 20 ms polls). The account's sender takes one message at a time, each on a new "
            "SMTP connection (password command, TLS, AUTH, the wait for the greeting); the Sent copies are "
            "APPENDed once the queue is drained, followed by one sync of the Sent folder, so a batch of N "
            "costs about N connections. msmtp (one process per message) also pays a full connection per "
            "message.")


def lived_in_line(options, result, profile):
    """How the lived-in batch was set up, and why it is slower when it is."""
    lived, fresh = result.get("mailfs_lived"), result.get("mailfs_bulk")
    if not lived or not fresh:
        return None
    per_message = [median(samples, "cpu") / options.count * 1000 for samples in (lived, fresh)]
    text = (f"Lived-in account: after the rounds above, {result['lived_in']:,} more letters were appended to "
            "alice's Sent over IMAP (MULTIAPPEND), the mount synced them (`sync` to `.control`, until `.status` "
            f"counted them), then one more batch of {options.count} went through outbox/ as above. The mount "
            f"used {per_message[0]:.0f} ms of CPU per message there against {per_message[1]:.0f} ms in the "
            "rounds above (median). " + (profile or ""))
    if median(lived, "delivered") <= 1.2 * median(fresh, "delivered"):
        return text
    return text + (" Why (mailfs's code, as measured): after each Sent copy the sender fires the account's "
                   "sync trigger (`syncSent`), and a sync walks every folder (the account's six) and calls "
                   "`MailStore.rethread(accountId:)` after each one, recomputing the conversation threads of "
                   "the whole account (thread metadata and a snippet for every message). So each message sent "
                   "costs several whole-account rethreads, work that grows with the account and competes "
                   "with the sender for the 2 cores. Each store commit also makes `MailTree.storeDidChange` "
                   "list the account directory again, and the size of `.log` in that listing renders the "
                   "whole event log, one ISO 8601 formatter per line.")


def notes(options, servers, result, facts, trace, profile=None):
    facts = dict(facts)
    lines = [
        f"Servers: Debian's Postfix {postfix_version()} and Dovecot {servers.dovecot_version()} started by "
        "`.ci/servers/start.sh` on 127.0.0.1. Both clients submit to Postfix's implicit-TLS port (465-style, "
        "the test CA, TLS 1.2+) with AUTH PLAIN as alice (Postfix asks Dovecot's auth socket); Postfix "
        "delivers by LMTP into bob's INBOX (Maildir). The letter: about 1.7 KiB of plain text with From, To, "
        "Subject, Date, Message-ID, MIME-Version and Content-Type, so mailfs adds nothing and both clients "
        "send the same bytes; each message has its own Message-ID.",
        "mailfs: release build, `mailfs mount` of alice's account into a fresh store (the sync benchmark's "
        "config: `poll_interval_seconds = 3600`) plus `undo_seconds = 0` and `[accounts.bench.smtp]` on the "
        "SMTPS port; `cp FILE outbox/` from this Python process. `cp` returns once close() has checked the "
        "message and committed it to the queue; the account's sender then submits it (a new SMTP connection "
        "per message, the password from `password_command = \"printenv …\"`) and afterwards APPENDs the Sent "
        "copy over IMAP, which the timings of acceptance and delivery do not wait for.",
        f"msmtp: {msmtp_side.version()}, `msmtp -C RC -t < FILE`; RC: `tls on`, `tls_starttls off`, "
        "`tls_trust_file` the test CA, `auth plain`, `user alice`, `passwordeval printenv …` (the same "
        "password command as mailfs's). It exits after the server's 250 and QUIT.",
        "Events come from inotify, not polling, by a thread that stamps each with the same monotonic clock "
        "as the client stamps: MAIL FROM = Postfix's cleanup renames its queue file in `queue/incoming/` to "
        "the queue id; accepted = cleanup makes that file executable (chmod 0700), its mark that the whole "
        "message is safely on disk, right before smtpd answers the DATA with 250; in bob's INBOX = Dovecot "
        "renames the message into `Maildir/new/`. Postfix's log has whole-second timestamps and mailfs's "
        "`.log` too, so neither can time a message; this is the same event for both clients.",
        "Per message: for mailfs the clock starts when `cp` returns (issue 5's definition; the `cp` itself "
        "is shown apart and in the \"from `cp` launched\" rows), for msmtp at its launch; accepted = msmtp's "
        "exit (when its user knows), and for mailfs Postfix's commit (mailfs learns it one reply later). "
        f"One untimed warm-up of each side, then {options.samples} rounds, the order alternating; each "
        "message is in bob's INBOX and mailfs's Sent copy saved (the file gone from outbox/: "
        "`getxattr user.mailfs.state` fails with ENOENT, polled every 20 ms only after the delivery) before "
        "the next starts, plus 0.3 s for the account sync that follows the copy.",
        f"Throughput: {options.bulk_rounds} round(s) of {options.count} messages on each side, alternating. "
        f"mailfs: a shell loop `for f; do cp \"$f\" outbox/; done` (each cp returns when its message is "
        "queued, the sender works meanwhile); msmtp: the same loop running msmtp, one after another. "
        "The clock starts when the loop starts; the slowest mailfs round is judged against the 10 s goal.",
        f"At the end bob's INBOX held {result.get('inbox_count', 'n/a')} messages (IMAP STATUS), each one "
        "accepted once, and alice's outbox/ was empty.",
        trace,
        pace_line(result),
        lived_in_line(options, result, profile),
        "Pauses of about 40 ms are Linux's delayed-ACK timer on loopback meeting Nagle's algorithm: a small "
        "write waits until the other side acknowledges the previous segment, and that side holds its ACK "
        "back for up to 40 ms while it has nothing to send. Postfix's smtpd does not set TCP_NODELAY (its "
        "strace shows only SO_KEEPALIVE on the client socket), and after the TLS handshake it writes the "
        "session ticket and the 220 greeting separately, so every client waits once for the greeting; mailfs "
        "sets TCP_NODELAY and sends its commands pipelined, so that is its only pause. msmtp leaves Nagle on "
        "and writes each line of the message as its own TLS record, which costs it two more such pauses "
        "(its TLS Finished, the end of the data); they, not TLS or AUTH, are most of the gap between the "
        "two clients here. On a real network the round trips weigh more and these pauses less.",
        samples_line(result),
        f"Machine: {facts.get('CPU')}, {facts.get('cores')} cores, {facts.get('RAM')} RAM, Linux "
        f"{facts.get('kernel')}, {facts.get('file system')} under {options.work}; load average (1, 5, 15 min) "
        f"at the start {facts.get('load average at start')}, at the end "
        f"{' '.join(f'{value:.2f}' for value in os.getloadavg())}; {facts.get('Swift')}; "
        f"{facts.get('libfuse')}. Client, servers and mount share the cores: compare the ratios of one run.",
    ]
    return [line for line in lines if line]
