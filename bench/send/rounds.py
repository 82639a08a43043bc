"""The two measurements of issue 5, mailfs and msmtp side by side against the same servers.

Per message: an untimed warm-up of each side, then SAMPLES rounds of one message each, the
order alternating; every message is delivered (and mailfs's Sent copy saved) before the next
one starts. Throughput: BULK_ROUNDS rounds of COUNT messages on each side, alternating.
All times are perf_counter stamps: the client's own (cp or msmtp launched / returned) and the
servers' (arrivals.py: MAIL FROM, accepted, delivered into bob's INBOX).
"""
import time

import letters
from scaffold import say
from servers import BenchError

SETTLE_SECONDS = 0.3   # after each message: the account sync that follows mailfs's Sent copy
MESSAGE_TIMEOUT = 60
BULK_TIMEOUT = 900


class Rounds:
    def __init__(self, options, mount, msmtp, arrivals, result):
        self.options, self.mount, self.msmtp, self.arrivals = options, mount, msmtp, arrivals
        self.result = result
        self.letters = options.work / "letters"
        self.mailfs_sent = 0   # messages mailfs has sent so far: its Sent copies, which the account keeps

    def per_message(self):
        say("per message: warm-up of each side ...")
        self.mailfs_one("warm-mailfs")
        self.msmtp_one("warm-msmtp")
        mailfs, msmtp = self.result.setdefault("mailfs_one", []), self.result.setdefault("msmtp_one", [])
        for number in range(1, self.options.samples + 1):
            say(f"per message: round {number} of {self.options.samples}")
            sides = [(mailfs, self.mailfs_one, "mailfs"), (msmtp, self.msmtp_one, "msmtp")]
            for samples, take, name in sides if number % 2 else reversed(sides):
                samples.append(take(f"{name}-{number:02d}"))

    def throughput(self):
        mailfs, msmtp = self.result.setdefault("mailfs_bulk", []), self.result.setdefault("msmtp_bulk", [])
        for number in range(1, self.options.bulk_rounds + 1):
            sides = [(mailfs, self.mailfs_batch, "mailfs"), (msmtp, self._msmtp_batch, "msmtp")]
            for samples, take, name in sides if number % 2 else reversed(sides):
                say(f"throughput: round {number} of {self.options.bulk_rounds}, {name}, "
                    f"{self.options.count} messages ...")
                samples.append(take(f"bulk{number}-{name}"))

    def mailfs_one(self, label):
        """One message through outbox/; seconds from cp's return to each event ("at": that
        return's perf_counter stamp)."""
        path = letters.write(self.letters, label)
        before = self.arrivals.counts()
        launched, returned = self.mount.copy_in(path)
        seen = self._await(before, 1, MESSAGE_TIMEOUT)
        saved = self.mount.wait_gone([path.name], MESSAGE_TIMEOUT)
        self.mailfs_sent += 1
        time.sleep(SETTLE_SECONDS)
        return {"at": returned, "cp": returned - launched, "saved": saved - returned,
                **_firsts(seen, returned)}

    def msmtp_one(self, label, wrapper=()):
        """One message by msmtp (run under WRAPPER, e.g. a tracer); seconds from its launch to
        each event ("at": the launch's perf_counter stamp)."""
        path = letters.write(self.letters, label)
        before = self.arrivals.counts()
        launched, exited = self.msmtp.send(path, wrapper)
        seen = self._await(before, 1, MESSAGE_TIMEOUT)
        time.sleep(SETTLE_SECONDS)
        return {"at": launched, "exited": exited - launched, **_firsts(seen, launched)}

    def mailfs_batch(self, label):
        """COUNT messages copied into outbox/ by a cp loop; seconds from the loop's start to each
        figure, the mount's CPU seconds meanwhile, and how many messages mailfs had sent before."""
        paths = letters.batch(self.letters / label, label, self.options.count)
        before, cpu, sent_before = self.arrivals.counts(), self.mount.cpu_seconds(), self.mailfs_sent
        started, copied = self.mount.copy_all(paths)
        seen = self._await(before, len(paths), BULK_TIMEOUT)
        saved = self.mount.wait_gone([path.name for path in paths], BULK_TIMEOUT)
        cpu = self.mount.cpu_seconds() - cpu
        self.mailfs_sent += len(paths)
        time.sleep(SETTLE_SECONDS)
        return {"copied": copied - started, "saved": saved - started, "cpu": cpu, "sent_before": sent_before,
                **_bulk_figures(seen, started)}

    def _msmtp_batch(self, label):
        paths = letters.batch(self.letters / label, label, self.options.count)
        before = self.arrivals.counts()
        started, finished = self.msmtp.send_all(paths)
        seen = self._await(before, len(paths), BULK_TIMEOUT)
        time.sleep(SETTLE_SECONDS)
        return {"finished": finished - started, **_bulk_figures(seen, started)}

    def _await(self, before, count, timeout):
        """Waits for COUNT more acceptances and deliveries than BEFORE; returns the new stamps of
        each kind: {"mail_from": […], "accepted": […], "delivered": […]}."""
        started, accepted, delivered = before
        if not self.arrivals.wait_for(accepted + count, delivered + count, timeout):
            now = self.arrivals.counts()
            raise BenchError(f"after {timeout} s the servers had accepted {now[1] - accepted} and delivered "
                             f"{now[2] - delivered} of {count} messages{self.mount.log_problems()}")
        if self.arrivals.overflowed:
            raise BenchError("the inotify queue overflowed: events were lost")
        return {"mail_from": self.arrivals.started[started:started + count],
                "accepted": self.arrivals.accepted[accepted:accepted + count],
                "delivered": self.arrivals.delivered[delivered:delivered + count]}


def _firsts(seen, since):
    """Seconds from SINCE to the first event of each kind (None when the kind was not seen)."""
    return {event: stamps[0] - since if stamps else None for event, stamps in seen.items()}


def _bulk_figures(seen, started):
    """Seconds from the start of a batch to its last MAIL FROM, acceptance and delivery, and
    the steady pace: mean gap between consecutive acceptances."""
    accepted = seen["accepted"]
    figures = {event: stamps[-1] - started if stamps else None for event, stamps in seen.items()}
    figures["first_accepted"] = accepted[0] - started
    figures["pace"] = (accepted[-1] - accepted[0]) / (len(accepted) - 1) if len(accepted) > 1 else None
    return figures
