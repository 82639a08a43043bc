"""What the servers did and when, seen from outside with inotify: no polling, no load on mailfs.

Postfix's cleanup server writes each message it receives into queue/incoming/: the file is
renamed to its queue id when the client's MAIL FROM arrives, and made executable (chmod 0700,
an IN_ATTRIB event) once the whole message is safely on disk; only then does smtpd answer the
DATA with "250 queued as ID". So that IN_ATTRIB is the server's acceptance, the same event for
any client. Dovecot's LMTP delivery ends with a rename into bob's Maildir new/ (IN_MOVED_TO):
the message is in the INBOX from that moment (cur/ is not watched: Dovecot moves
files there when a client opens the mailbox, which is no delivery). Postfix's own log has whole-second timestamps,
too coarse to time a message by.

A thread blocks on the inotify descriptor and stamps each event with time.perf_counter() as it
wakes, the clock the benchmark's other timestamps use.
"""
import ctypes
import os
import struct
import threading
import time

IN_ATTRIB = 0x4
IN_MOVED_TO = 0x80
IN_Q_OVERFLOW = 0x4000
EVENT_HEADER = struct.Struct("iIII")  # wd, mask, cookie, name length

_libc = ctypes.CDLL(None, use_errno=True)


class Arrivals:
    """Times of MAIL FROM (queue file named), acceptance and delivery, each a list in order."""

    def __init__(self, queue_dir, maildir):
        self.started, self.accepted, self.delivered = [], [], []
        self._seen = {"started": set(), "accepted": set()}
        self._changed = threading.Condition()
        self._fd = _libc.inotify_init1(os.O_CLOEXEC)
        if self._fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1")
        self._roles = {}
        self._watch(os.path.join(queue_dir, "incoming"), IN_ATTRIB | IN_MOVED_TO, "queue")
        self._watch(os.path.join(maildir, "new"), IN_MOVED_TO, "maildir")
        self.overflowed = False
        threading.Thread(target=self._read_forever, name="inotify", daemon=True).start()

    def counts(self):
        with self._changed:
            return len(self.started), len(self.accepted), len(self.delivered)

    def wait_for(self, accepted, delivered, timeout):
        """Blocks until at least ACCEPTED acceptances and DELIVERED deliveries were seen in all;
        returns False on timeout."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while len(self.accepted) < accepted or len(self.delivered) < delivered:
                left = deadline - time.monotonic()
                if left <= 0 or not self._changed.wait(left):
                    return len(self.accepted) >= accepted and len(self.delivered) >= delivered
        return True

    def _watch(self, path, mask, role):
        descriptor = _libc.inotify_add_watch(self._fd, os.fsencode(path), mask)
        if descriptor < 0:
            raise OSError(ctypes.get_errno(), f"inotify_add_watch {path}")
        self._roles[descriptor] = role

    def _read_forever(self):
        while True:
            data = os.read(self._fd, 1 << 16)
            now = time.perf_counter()
            with self._changed:
                for descriptor, mask, name in _events(data):
                    self._note(now, self._roles.get(descriptor), mask, name)
                self._changed.notify_all()

    def _note(self, now, role, mask, name):
        if mask & IN_Q_OVERFLOW:
            self.overflowed = True
        elif role == "maildir" and mask & IN_MOVED_TO:
            self.delivered.append(now)
        elif role == "queue" and "." not in name:  # queue ids; cleanup's temporary names have dots
            kind = "accepted" if mask & IN_ATTRIB else "started"
            if name not in self._seen[kind]:
                self._seen[kind].add(name)
                getattr(self, kind).append(now)


def _events(data):
    """(watch descriptor, mask, name) of each event in one read of the inotify descriptor."""
    offset = 0
    while offset + EVENT_HEADER.size <= len(data):
        descriptor, mask, _, length = EVENT_HEADER.unpack_from(data, offset)
        start = offset + EVENT_HEADER.size
        yield descriptor, mask, data[start:start + length].rstrip(b"\0").decode(errors="replace")
        offset = start + length
