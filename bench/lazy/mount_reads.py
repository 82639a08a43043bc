"""Reads through the mount: a cold first read (the open downloads), and `cat` for re-reads."""
import hashlib
import os
import re
import subprocess
import time
from pathlib import Path

import timing
from account_mount import ACCOUNT
from servers import BenchError

READ_SIZE = 1 << 17  # what GNU cat asks for at a time (128 KiB)
DOWNLOADED = re.compile(r"downloaded .* \((\d+) bytes\) in ([0-9.,]+) ms")


def clear_cache(binary, mount):
    """`mailfs cache clear ACCOUNT --data-dir D` (safe while mounted): the next open downloads."""
    result = subprocess.run([binary, "cache", "clear", ACCOUNT, "--data-dir", str(mount.data_dir)],
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise BenchError(f"mailfs cache clear failed: {result.stderr.strip()}")


def first_read(path):
    """Seconds from open() to its return, to the first read() with data, and to EOF, plus the
    hash of what was read (computed after the clock stopped)."""
    chunks = []
    started = time.perf_counter()
    fd = os.open(path, os.O_RDONLY)
    try:
        opened = time.perf_counter()
        chunk = os.read(fd, READ_SIZE)
        first_byte = time.perf_counter()
        while chunk:
            chunks.append(chunk)
            chunk = os.read(fd, READ_SIZE)
        finished = time.perf_counter()
    finally:
        os.close(fd)
    digest = hashlib.sha256()
    for chunk in chunks:
        digest.update(chunk)
    return {"open": opened - started, "ttfb": first_byte - started, "total": finished - started,
            "bytes": sum(map(len, chunks)), "sha256": digest.hexdigest()}


def cold_sample(binary, mount, path, logins):
    """One first read after emptying the cache; also the mount's CPU time during it, what it
    logged and which connection it could use (.status's pool line before, server logins during)."""
    clear_cache(binary, mount)
    pool = mount.status().get("connections", "unknown")
    logins_before = logins()
    downloads_before = len(downloads(mount))
    cpu_before = mount.cpu_seconds()
    result = first_read(path)
    cpu = mount.cpu_seconds() - cpu_before
    logged = downloads(mount)[downloads_before:]
    result.update(pool_before=pool, new_logins=logins() - logins_before, cpu=cpu,
                  logged_ms=logged[-1] if logged else None)
    return result


def downloads(mount):
    """The "downloaded … in N ms" figures of the account's .log, oldest first."""
    try:
        text = (mount.account_dir / ".log").read_text(errors="replace")
    except OSError:
        return []
    return [float(match.group(2).replace(",", "")) for match in DOWNLOADED.finditer(text)]


def cat_seconds(path, cold):
    """Wall seconds of `cat PATH` into a pipe read to the end; COLD drops the page cache first."""
    if cold:
        timing.drop_caches()
    return timing.run(["cat", str(path)], keep_output=False).seconds


def find_attachment(mount, name, timeout=30):
    """The path of the attachment file NAME under the account's attachments/."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = sorted(Path(mount.account_dir, "attachments").glob(f"*/{name}"))
        if found:
            return found[0]
        time.sleep(0.2)
    raise BenchError(f"no attachments/*/{name} in the mount after {timeout} s")
