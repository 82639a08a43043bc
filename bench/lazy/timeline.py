"""The steps of one download, read off `perf trace` output of the mount process.

perf trace prints descriptors as numbers, so the IMAP connection and /dev/fuse are looked up
in /proc before the read (the pooled connection keeps its descriptor). The download's partial
file is the one openat() with O_CREAT|O_EXCL, made before the first command; it becomes the
cache file at the one rename(). open() is answered (a write to /dev/fuse) once the first literal
bytes arrived, while the rest is still on its way.
"""
import os
import re

# "  12.345 ( 0.010 ms): NIO-ELT-0-#0/4242 read(fd: 20, buf: 0x7f.., count: 65536)   = 332"
EVENT = re.compile(r"^\s*([0-9.]+) \(\s*([0-9.]+) ms\): .*?/\d+ (\w+)\((.*)\)\s+= (-?\d+)")
FD = re.compile(r"\bfd: (\d+)")


def descriptors(pid, imap_port):
    """{"imap": fds of sockets connected to IMAP_PORT, "fuse": fds of /dev/fuse} of process PID."""
    inodes = _socket_inodes_to(pid, imap_port)
    found = {"imap": set(), "fuse": set()}
    for name in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{name}")
        except OSError:
            continue
        if target == "/dev/fuse":
            found["fuse"].add(int(name))
        elif target.startswith("socket:[") and target[8:-1] in inodes:
            found["imap"].add(int(name))
    return found


def _socket_inodes_to(pid, port):
    """Inodes of the TCP sockets of PID whose remote port is PORT (from /proc/PID/net/tcp*)."""
    inodes = set()
    for table in ("tcp", "tcp6"):
        try:
            lines = open(f"/proc/{pid}/net/{table}").read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if len(fields) > 9 and int(fields[2].rpartition(":")[2], 16) == port:
                inodes.add(fields[9])
    return inodes


def events(text):
    """(exit time in seconds, syscall, arguments, result) of each completed call."""
    found = []
    for line in text.splitlines():
        match = EVENT.match(line)
        if match:
            start, duration, name, arguments, result = match.groups()
            found.append(((float(start) + float(duration)) / 1000, name, arguments, int(result)))
    return found


def fd_of(arguments):
    match = FD.search(arguments)
    return int(match.group(1)) if match else None


def phases(text, fds):
    """[(label, seconds)] of the download, or None when a landmark is missing."""
    calls = events(text)
    created = [time for time, name, arguments, _ in calls if name == "openat" and "EXCL" in arguments]
    renamed = [time for time, name, _, result in calls if name.startswith("rename") and result == 0]
    if not created or not renamed:
        return None
    commands = [time for time, name, arguments, _ in calls
                if name in ("write", "writev") and fd_of(arguments) in fds["imap"] and time > created[0]]
    received = [time for time, name, arguments, result in calls
                if name == "read" and result > 0 and fd_of(arguments) in fds["imap"] and time < renamed[0]]
    if not commands or not received:
        return None
    replies = [time for time, name, arguments, _ in calls
               if name in ("write", "writev") and fd_of(arguments) in fds["fuse"] and time > commands[0]]
    if not replies:
        return None
    return [
        ("partial file created to the first command written (EXAMINE, then the UID FETCH)", commands[0] - created[0]),
        ("first command to open() answered (the FETCH's first literal bytes arrived)", replies[0] - commands[0]),
        ("first command to the last byte received", received[-1] - commands[0]),
        ("last byte received to the file renamed into the cache (last decode and write, store update)",
         renamed[0] - received[-1]),
    ]
