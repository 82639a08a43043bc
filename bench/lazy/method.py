"""Method notes under the table: what was measured, how, on what, and where mailfs's time goes."""
import os

from figures import median, seconds
from section import GOAL_WHOLE_READ, MIB, spread


def pool_summary(samples):
    """How mailfs reached the server during its cold reads: pooled connection or new logins."""
    pools = sorted({sample["pool_before"] for sample in samples})
    logins = sum(sample["new_logins"] for sample in samples)
    return (f"Before each cold read `.status` said `connections: {' | '.join(pools)}`; the server logged "
            f"{logins} new logins of the account during the {len(samples)} timed cold reads, so mailfs "
            + ("fetched on a connection its pool kept logged in since the sync (no connect, TLS or LOGIN in "
               "its times), while imaplib's times exclude its fresh connection's connect + LOGIN: both sides "
               "are timed from an open, logged-in connection." if logins == 0 else
               "opened connections of its own inside some of its timed reads (their connect + TLS + LOGIN is "
               "in mailfs's times, not in imaplib's)."))


def breakdown(result):
    """Where the cold read's time goes, from the phases the benchmark and .log can see."""
    mount = result["mount_cold"]
    total, opened, first = median(mount, "total"), median(mount, "open"), median(mount, "ttfb")
    logged = [sample["logged_ms"] / 1000 for sample in mount if sample.get("logged_ms") is not None]
    if not total or not opened:
        return None
    logged_text = (f"mailfs's own \"downloaded\" figure (EXAMINE, UID FETCH, decode, cache file write, "
                   f"store update, from the download's start to the file in the cache) is "
                   f"{seconds(sorted(logged)[len(logged) // 2])}; " if logged else "")
    return (f"Where a cold read's time goes (medians): open() returns after {seconds(opened)}, once the server "
            f"has begun sending the part (EXAMINE and the FETCH's first bytes on a pooled connection); the "
            f"first read() has data at {seconds(first)}; {logged_text}the reader reaches EOF at "
            f"{seconds(total)}, reading the bytes as they are decoded into the cache file "
            "(each read waits only for its own range).")


def first_read_cause(result):
    """Why the first read trails the raw fetch + decode, when it does; None otherwise."""
    total, decoded = median(result.get("mount_cold", []), "total"), median(result.get("raw", []), "decoded")
    if not total or not decoded or total <= GOAL_WHOLE_READ * decoded:
        return None
    return ("Why the whole read trails imaplib's fetch + decode: mailfs's receive, base64 decode and cache "
            "write overlap with the transfer (they run on the connection's event loop as each TLS read "
            "arrives), but the reader's FUSE reads (128 KiB each, direct I/O) are extra round trips through "
            "the kernel that imaplib does not make; see the profile above for the split.")


def notes(options, servers, result, facts, profile):
    facts = dict(facts)
    samples = options.samples
    lines = [
        f"Server: Debian's Dovecot {servers.dovecot_version()} started by `.ci/servers/start.sh` on 127.0.0.1, "
        f"IMAPS with the test CA; one message in {options.user}'s INBOX, appended over IMAP: a text part and a "
        f"{options.size_mib} MiB attachment of random bytes (seed {options.seed}) as part 2, base64 in 76-column "
        f"lines ({result.get('encoded_bytes', 0) / MIB:.1f} MiB on the wire).",
        "mailfs: release build, `mailfs mount` of the account into a fresh store, every setting at its default "
        "except `poll_interval_seconds = 3600` (no periodic sync inside a measurement); with the default "
        "`raw_store_max_kb = 256` sync keeps the message's structure and text but not its bytes, so the "
        f"attachment file `attachments/<message>/{options.attachment_name}` is downloaded on its first open.",
        f"Cold first read: `mailfs cache clear {options.account} --data-dir D` (mounted), then from this Python "
        "process open(), read() of 128 KiB (GNU cat's size) until EOF. Time to first byte = open() to the "
        "first read() that returned data; all bytes = open() to EOF. Every sample's SHA-256 is checked "
        "against the attachment's.",
        "imaplib: a fresh `imaplib.IMAP4_SSL` connection and LOGIN per sample (timed apart), EXAMINE INBOX, "
        "then `UID FETCH uid (BODY.PEEK[2])` sent with imaplib's send() and read back with its readline() "
        "and read(): time to first byte = sending the command to the first byte of the literal; fetch = to "
        "the tagged OK; + decode = plus `base64.b64decode` of the literal (the mount serves decoded bytes, "
        "so this is the like-for-like figure the goal uses). SHA-256 checked likewise.",
        f"Order: one untimed warm-up of each (Dovecot caches the message's structure; the mount's very first "
        f"download is also the one that learns the exact size), then {samples} rounds of one mount read and one "
        "imaplib fetch, the order alternating each round.",
        "Cached re-read: `cat FILE` into a pipe this process reads to the end (same for both sides), FILE the "
        "attachment in the mount (served from mailfs's cache file) or a copy of the same bytes on local disk "
        "in the same file system as the store. Cold = `sync; echo 3 > /proc/sys/vm/drop_caches` before each "
        "sample (this also drops the mount's dentries and the FUSE page cache, so `cat` goes through mailfs "
        f"and its cache file is read from disk); warm = after one untimed `cat`. {samples} samples of each, "
        "alternating. No download happened during the cached runs (checked in `.log`)."
        if result.get("drop_caches", True) else
        "Cached re-read: cold runs skipped (cannot drop the page cache: not root or forbidden here).",
        pool_summary(result["mount_cold"]) if result.get("mount_cold") else None,
        breakdown(result) if result.get("mount_cold") else None,
        profile,
        first_read_cause(result) if result.get("mount_cold") else None,
        "Samples in run order: " + "; ".join(
            f"{label} {spread(result.get(key, []), field)}" for label, key, field in (
                ("mount cold read", "mount_cold", "total"), ("imaplib fetch + decode", "raw", "decoded"),
                ("mount cat cold", "mount_cat_cold", "seconds"), ("disk cat cold", "disk_cat_cold", "seconds"),
                ("mount cat warm", "mount_cat_warm", "seconds"), ("disk cat warm", "disk_cat_warm", "seconds"))
            if result.get(key)) + ".",
        f"Machine: {facts.get('CPU')}, {facts.get('cores')} cores, {facts.get('RAM')} RAM, Linux "
        f"{facts.get('kernel')}, {facts.get('file system')} under {options.work}; load average (1, 5, 15 min) "
        f"at the start {facts.get('load average at start')}, at the end "
        f"{' '.join(f'{value:.2f}' for value in os.getloadavg())}; {facts.get('Swift')}; "
        f"{facts.get('libfuse')}. A loaded machine stretches both sides: compare the ratios of one run.",
    ]
    return [line for line in lines if line]
