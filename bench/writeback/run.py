#!/usr/bin/env python3
"""Write-back benchmark of issue 9: rm and mv of 1,000 messages through the mount, and one
setfattr, until the server reflects them, side by side with one imaplib session issuing
UID MOVE in batches (the protocol's physical limit) on an identical folder; then an rm of
5,000 in one folder, timed a thousand files at a time, to show whether a file costs more
as the journal fills.

    bench/writeback/run.py [--binary PATH] [--count N] [--batch B] [--flag-samples K] [--scale-count M]

--binary defaults to $MAILFS_BIN (a release or debug build of mailfs). Starts the test Dovecot
(.ci/servers), fills four identical folders of alice's account with N small messages each
(MULTIAPPEND), one folder for the flag samples and one of M, mounts the account with
`delete_guard = 10000`, measures, prints a Markdown section and writes it to
bench/writeback/results.md. Needs root (the servers switch users) and /dev/fuse.
The server side is watched by a second imaplib session polling STATUS (rm, mv) or
NOOP + UID FETCH FLAGS (setfattr) every few milliseconds.
"""
import imaplib
import os
import re
import ssl
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the sources
sys.path.insert(1, str(Path(__file__).resolve().parents[1] / "lib"))

import scaffold  # noqa: E402
from account_mount import AccountMount  # noqa: E402
from bulk_append import append_all, login  # noqa: E402
from figures import ratio  # noqa: E402
from scaffold import say  # noqa: E402
from servers import BenchError, install  # noqa: E402

HERE = Path(__file__).resolve().parent
USER = "alice"
GOAL_BULK_RATIO = 1.5      # rm/mv of N through the mount / imaplib UID MOVE batches
GOAL_FLAG_P50 = 0.300      # seconds from setfattr to \Seen on the server
POLL_SECONDS = 0.005
# Above every deletion of a run: the guard counts the last 60 s, and none may be held.
DELETE_GUARD = 10000
SCALE_CHUNK = 1000         # files per rm of the scale step


def parse_arguments():
    parser = scaffold.parser(__doc__)
    parser.add_argument("--binary", default=os.environ.get("MAILFS_BIN"),
                        help="the mailfs binary (default $MAILFS_BIN)")
    parser.add_argument("--count", type=int, default=1000, help="messages removed and moved (default 1000)")
    parser.add_argument("--batch", type=int, default=100, help="UIDs per UID MOVE of the imaplib side (default 100)")
    parser.add_argument("--flag-samples", type=int, default=50, help="timed setfattr calls (default 50)")
    parser.add_argument("--scale-count", type=int, default=5000,
                        help="messages of the folder removed a thousand at a time (default 5000; 0: skip)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds to wait for the server (default 300)")
    scaffold.add_server_options(parser, "/tmp/mailfs-wbbench", HERE / "results.md")
    options = parser.parse_args()
    if not options.binary:
        parser.error("--binary or $MAILFS_BIN is needed")
    if options.count < 1 or options.batch < 1 or options.flag_samples < 2:
        parser.error("--count and --batch at least 1, --flag-samples at least 2")
    if options.scale_count and (options.scale_count < 2 * SCALE_CHUNK or options.scale_count % SCALE_CHUNK):
        parser.error(f"--scale-count: 0, or a multiple of {SCALE_CHUNK} from {2 * SCALE_CHUNK}")
    if options.count + options.scale_count > DELETE_GUARD:
        parser.error(f"--count + --scale-count: at most the bench's delete_guard, {DELETE_GUARD}")
    options.binary = os.path.abspath(options.binary)
    return options


def letters(directory, prefix, count):
    """COUNT small messages with unique subjects and Message-IDs, one file each; their paths."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for index in range(count):
        path = directory / f"{index:06d}.eml"
        path.write_text(f"From: Ann <ann@example.test>\r\nTo: alice@example.test\r\n"
                        f"Subject: {prefix} {index:04d}\r\nDate: Sat, 21 Nov 2026 12:00:00 +0000\r\n"
                        f"Message-ID: <wbbench-{prefix.lower()}-{index}@example.test>\r\n\r\nbenchmark\r\n")
        paths.append(path)
    return paths


class Watcher:
    """A second IMAP client that watches the server (imaplib over the test CA)."""

    def __init__(self, servers):
        context = ssl.create_default_context(cafile=servers.ca_file)
        self.session = imaplib.IMAP4_SSL("127.0.0.1", servers.port, ssl_context=context, timeout=60)
        self.session.login(USER, servers.password(USER))

    def count(self, mailbox):
        status, data = self.session.status(f'"{mailbox}"', "(MESSAGES)")
        if status != "OK":
            raise BenchError(f"STATUS {mailbox}: {data}")
        return int(re.search(rb"MESSAGES (\d+)", data[0]).group(1))

    def wait_counts(self, expected, timeout):
        """Polls STATUS until every mailbox has its expected count; the perf_counter stamp then."""
        deadline = time.monotonic() + timeout
        while True:
            if all(self.count(mailbox) == count for mailbox, count in expected.items()):
                return time.perf_counter()
            if time.monotonic() > deadline:
                seen = {mailbox: self.count(mailbox) for mailbox in expected}
                raise BenchError(f"the server did not reach {expected} in {timeout} s: {seen}")
            time.sleep(POLL_SECONDS)

    def uids_by_subject(self, mailbox):
        self.session.select(f'"{mailbox}"')
        status, data = self.session.uid("FETCH", "1:*", "(UID BODY.PEEK[HEADER.FIELDS (SUBJECT)])")
        mapping = {}
        for item in data:
            if isinstance(item, tuple):
                uid = int(re.search(rb"UID (\d+)", item[0]).group(1))
                mapping[item[1].decode().split(":", 1)[1].strip()] = uid
        return mapping

    def wait_seen(self, uid, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.session.noop()
            status, data = self.session.uid("FETCH", str(uid), "(FLAGS)")
            if status == "OK" and any(isinstance(d, bytes) and b"\\Seen" in d for d in data):
                return time.perf_counter()
            time.sleep(POLL_SECONDS)
        raise BenchError(f"UID {uid} did not get \\Seen within {timeout} s")

    def logout(self):
        try:
            self.session.logout()
        except (imaplib.IMAP4.error, OSError):
            pass


def imaplib_moves(servers, source, target, batch):
    """One imaplib session: SELECT, UID SEARCH ALL, UID MOVE in batches; seconds from the
    SELECT to the last tagged OK."""
    context = ssl.create_default_context(cafile=servers.ca_file)
    session = imaplib.IMAP4_SSL("127.0.0.1", servers.port, ssl_context=context, timeout=60)
    session.login(USER, servers.password(USER))
    started = time.perf_counter()
    session.select(f'"{source}"')
    uids = session.uid("SEARCH", "ALL")[1][0].split()
    for first in range(0, len(uids), batch):
        chunk = b",".join(uids[first:first + batch]).decode()
        status, data = session.uid("MOVE", chunk, f'"{target}"')
        if status != "OK":
            raise BenchError(f"UID MOVE refused: {data}")
    finished = time.perf_counter()
    session.logout()
    return finished - started


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(fraction * len(ordered) + 0.5)) - 1))]


class WriteBackMount(AccountMount):
    """The account mount with `delete_guard = DELETE_GUARD`."""

    def config_text(self):
        return super().config_text().replace("[defaults]\n", f"[defaults]\ndelete_guard = {DELETE_GUARD}\n", 1)

    def folder(self, name):
        return self.account_dir / name

    def wait_listed(self, name, count, timeout):
        deadline = time.monotonic() + timeout
        while len(list_eml(self.folder(name))) != count:
            if time.monotonic() > deadline:
                raise BenchError(f"{name} lists {len(list_eml(self.folder(name)))} of {count} after {timeout} s")
            time.sleep(0.1)


def list_eml(directory):
    try:
        return sorted(name for name in os.listdir(directory) if name.endswith(".eml"))
    except OSError:
        return []


def run_shell(script, *arguments):
    """Runs `sh -c SCRIPT`; (seconds, exit status, stderr)."""
    started = time.perf_counter()
    done = subprocess.run(["sh", "-c", script, "sh", *map(str, arguments)], capture_output=True)
    return time.perf_counter() - started, done.returncode, done.stderr.decode(errors="replace").strip()


def measure(options, servers, result, errors):
    install()
    servers.start()
    count = options.count
    folders = {"rm_mount": "RmMount", "rm_imap": "RmImap", "mv_mount": "MvMount", "mv_imap": "MvImap",
               "mv_mount_to": "MvMountTo", "mv_imap_to": "MvImapTo", "flags": "Flags", "scale": "RmScale"}
    session = login("127.0.0.1", servers.port, servers.ca_file, USER, servers.password(USER))
    for name in folders.values():
        session.simple(f'CREATE "{name}"')
    bulk = letters(options.work / "letters" / "bulk", "Bulk", count)
    for key in ("rm_mount", "rm_imap", "mv_mount", "mv_imap"):
        append_all(session, folders[key], [str(path) for path in bulk])
    append_all(session, folders["flags"],
               [str(path) for path in letters(options.work / "letters" / "flags", "Flag", options.flag_samples)])
    if options.scale_count:
        append_all(session, folders["scale"],
                   [str(path) for path in letters(options.work / "letters" / "scale", "Scale", options.scale_count)])
    session.simple("LOGOUT")
    say(f"seeded 4 x {count} + {options.flag_samples} + {options.scale_count} messages")

    watcher = Watcher(servers)
    mount = WriteBackMount(options.binary, servers, USER, options.work / "mount")
    try:
        mount.launch()
        mount.wait_synced(timeout=options.timeout)
        for key in ("rm_mount", "mv_mount"):
            mount.wait_listed(folders[key], count, options.timeout)
        mount.wait_listed(folders["flags"], options.flag_samples, options.timeout)
        mount.wait_listed(folders["scale"], options.scale_count, options.timeout)
        say("mounted and synced")

        # rm of N: the mount, then the same change by imaplib on the twin folder.
        trash = watcher.count("Trash")
        started = time.perf_counter()
        seconds, status, stderr = run_shell('cd "$1" && rm -f -- *.eml', mount.folder(folders["rm_mount"]))
        result["rm_command"] = seconds
        if status != 0:
            errors.append(f"rm through the mount failed: {stderr.splitlines()[-1] if stderr else status}")
        else:
            done = watcher.wait_counts({folders["rm_mount"]: 0, "Trash": trash + count}, options.timeout)
            result["rm_mount"] = done - started
        trash = watcher.count("Trash")
        result["rm_imap"] = imaplib_moves(servers, folders["rm_imap"], "Trash", options.batch)
        if watcher.count("Trash") != trash + count:
            errors.append("the imaplib side's UID MOVE to Trash left messages behind")
        say(f"rm: mount {result.get('rm_mount')}, imaplib {result['rm_imap']:.2f} s")

        # mv of N to another folder.
        target = mount.folder(folders["mv_mount_to"])
        started = time.perf_counter()
        seconds, status, stderr = run_shell('cd "$1" && mv -- *.eml "$2"/', mount.folder(folders["mv_mount"]), target)
        result["mv_command"] = seconds
        if status != 0:
            errors.append(f"mv through the mount failed: {stderr.splitlines()[-1] if stderr else status}")
        else:
            done = watcher.wait_counts({folders["mv_mount"]: 0, folders["mv_mount_to"]: count}, options.timeout)
            result["mv_mount"] = done - started
        result["mv_imap"] = imaplib_moves(servers, folders["mv_imap"], folders["mv_imap_to"], options.batch)
        say(f"mv: mount {result.get('mv_mount')}, imaplib {result['mv_imap']:.2f} s")

        # setfattr user.mailfs.seen = 1, one message at a time, until FETCH FLAGS shows \Seen.
        uids = watcher.uids_by_subject(folders["flags"])
        samples = []
        for name in list_eml(mount.folder(folders["flags"])):
            subject = next((s for s in uids if s in name), None)
            if subject is None:
                continue
            started = time.perf_counter()
            try:
                os.setxattr(mount.folder(folders["flags"]) / name, "user.mailfs.seen", b"1")
            except OSError as error:
                errors.append(f"setfattr through the mount failed: {error}")
                break
            try:
                samples.append(watcher.wait_seen(uids[subject], min(options.timeout, 30)) - started)
            except BenchError as error:
                errors.append(str(error))
                break
        result["flag_samples"] = samples

        if options.scale_count:
            result["scale_chunks"] = remove_in_chunks(mount.folder(folders["scale"]), errors)
            say(f"rm of {options.scale_count} by {SCALE_CHUNK}: {result['scale_chunks']}")
    finally:
        watcher.logout()
        mount.stop()


def remove_in_chunks(folder, errors):
    """`rm` of the folder's files SCALE_CHUNK at a time, in listing order; each rm's seconds."""
    names = list_eml(folder)
    timings = []
    for first in range(0, len(names), SCALE_CHUNK):
        started = time.perf_counter()
        done = subprocess.run(["rm", "-f", "--", *names[first:first + SCALE_CHUNK]], cwd=folder, capture_output=True)
        timings.append(time.perf_counter() - started)
        if done.returncode != 0:
            errors.append(f"rm of the scale folder failed: {done.stderr.decode(errors='replace').strip()[-200:]}")
            break
    return timings


def seconds(value):
    if value is None:
        return "n/a"
    if value < 1:
        return f"{value * 1000:.0f} ms"
    return f"{value:.2f} s"


def verdict(ok):
    return "n/a" if ok is None else ("met" if ok else "missed")


def markdown(options, result, facts, errors):
    count = f"{options.count:,}"
    samples = result.get("flag_samples") or []
    p50 = statistics.median(samples) if samples else None
    p99 = percentile(samples, 0.99) if samples else None
    rm_ratio = result["rm_mount"] / result["rm_imap"] if result.get("rm_mount") and result.get("rm_imap") else None
    mv_ratio = result["mv_mount"] / result["mv_imap"] if result.get("mv_mount") and result.get("mv_imap") else None
    rows = [
        (f"**rm of {count}** → all in Trash on the server", seconds(result.get("rm_mount")),
         seconds(result.get("rm_imap")), ratio(result.get("rm_mount"), result.get("rm_imap")),
         f"≤ {GOAL_BULK_RATIO}x: {verdict(None if rm_ratio is None else rm_ratio <= GOAL_BULK_RATIO)}"),
        ("  `rm` itself (returns once the journal has the changes)", seconds(result.get("rm_command")), "n/a", "n/a", ""),
        (f"**mv of {count}** to another folder → all there on the server", seconds(result.get("mv_mount")),
         seconds(result.get("mv_imap")), ratio(result.get("mv_mount"), result.get("mv_imap")),
         f"≤ {GOAL_BULK_RATIO}x: {verdict(None if mv_ratio is None else mv_ratio <= GOAL_BULK_RATIO)}"),
        ("  `mv` itself", seconds(result.get("mv_command")), "n/a", "n/a", ""),
        (f"**setfattr seen=1 → \\Seen on the server**, p50 of {len(samples)}", seconds(p50), "n/a", "n/a",
         f"< {GOAL_FLAG_P50 * 1000:.0f} ms: {verdict(None if p50 is None else p50 < GOAL_FLAG_P50)}"),
        (f"  p99 of {len(samples)}", seconds(p99), "n/a", "n/a", ""),
    ]
    chunks = result.get("scale_chunks") or []
    if len(chunks) >= 2:
        rows.append((f"rm of {options.scale_count:,} in one folder, {SCALE_CHUNK:,} files per `rm`: the first and "
                     f"the last `rm` (all: {', '.join(seconds(c) for c in chunks)})",
                     f"{seconds(chunks[0])} and {seconds(chunks[-1])} (last / first {chunks[-1] / chunks[0]:.2f})",
                     "n/a", "n/a", ""))
    lines = [
        "## Write-back",
        "",
        "Written by `bench/writeback/run.py`. Changes made through the mount (alice's account on the test "
        f"Dovecot, `delete_guard = {DELETE_GUARD}`) timed until a second IMAP client (imaplib, polling STATUS or "
        f"NOOP + UID FETCH FLAGS every {POLL_SECONDS * 1000:.0f} ms) sees all of them on the server, side by side "
        f"with one imaplib session issuing `UID MOVE` in batches of {options.batch} UIDs on an identical folder "
        "(SELECT to the last tagged OK: the protocol's physical limit). Ratio = mailfs / imaplib.",
        "",
        "| metric | mailfs (through the mount) | imaplib UID MOVE | ratio | goal |",
        "|---|---|---|---|---|",
    ]
    lines += [f"| {' | '.join(row)} |" for row in rows]
    if samples:
        lines += ["", "setfattr samples (ms, in run order): " + ", ".join(f"{s * 1000:.0f}" for s in samples)]
    if errors:
        lines += ["", "**Errors** (the figures above are n/a where a step failed):", ""]
        lines += [f"- {error}" for error in errors]
    lines += ["", "Machine:", ""] + [f"- {label}: {value}" for label, value in facts]
    return "\n".join(lines) + "\n"


def main():
    options = parse_arguments()
    result = {}

    def section(_measured, _servers, facts, errors):
        return markdown(options, result, facts, errors)
    return scaffold.run_section(options, lambda servers, errors: measure(options, servers, result, errors), section,
                                scratch=("letters", "mount"),
                                expected=(BenchError, imaplib.IMAP4.error, OSError, RuntimeError))


if __name__ == "__main__":
    scaffold.run_until_interrupted(main, "mount and servers")
