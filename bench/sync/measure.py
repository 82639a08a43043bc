"""The measurements of one mailbox size, mailfs and mbsync side by side on the same mailbox.

Order, the same for both clients: seed N messages; optionally one untimed warm-up initial sync
of each (Dovecot builds its index and cache files on the first FETCH of each field, so the
first client would otherwise pay for the second); R timed initial syncs of each, alternating,
into fresh local state; K syncs with nothing new; K times "append 10 messages, sync"; K times
"append 2 messages to each of the five other folders, sync" (no IDLE watches them); then
messages appended one at a time by another client, seen through IDLE (idle_latency.py). A pause of
PAUSE_SECONDS precedes every incremental run: mbsync sleeps a second when its Maildir
changed within the current second, which would otherwise count against it.
"""
import shutil
import subprocess
import time
from pathlib import Path

import idle_latency
from account_mount import AccountMount, MountExited
from mbsync_side import Mbsync
from scaffold import say
from seeded_mailbox import Mailbox, corpus_files
from servers import BenchError

PAUSE_SECONDS = 1.5
NEW_MESSAGES = 10
# The folders the test account has beside its INBOX, empty until the spread incremental runs.
SPREAD_FOLDERS = ("Sent", "Drafts", "Trash", "Junk", "Archive")
SPREAD_EACH = 2
INITIAL_TIMEOUT = 3600


def idle_baseline(binary, servers, user, work_dir):
    """Memory of a mount whose account has no mail, after its (empty) sync has settled."""
    mount = AccountMount(binary, servers, user, Path(work_dir) / "idle-mailfs")
    try:
        mount.launch()
        mount.wait_synced(120)
        time.sleep(2)
        memory = mount.memory_kib()
    finally:
        mount.stop()
    return {"rss": memory["VmRSS"], "hwm": memory["VmHWM"]}


class SizeRun:
    """Everything measured for one mailbox of COUNT messages, in USER's INBOX."""

    def __init__(self, options, servers, user, count):
        self.options = options
        self.servers = servers
        self.count = count
        self.mailbox = Mailbox(servers, user)
        self.user = user
        self.dir = Path(options.work) / f"run-{count}"
        self.result = {"messages": count, "user": user, "mailfs": {}, "mbsync": {}, "restarts": []}

    def run(self):
        self.seed()
        if not self.options.no_warmup:
            self.warm_up()
        mount = AccountMount(self.options.binary, self.servers, self.user, self.dir / "mailfs")
        try:
            self.initial(mount)
            self.incremental(mount)
        finally:
            mount.stop()
        self.result["mailfs"]["store_bytes"] = disk_usage(mount.data_dir)
        self.result["mbsync"]["maildir_bytes"] = disk_usage(self.mbsync.maildir)
        if not self.options.keep:
            shutil.rmtree(self.dir, ignore_errors=True)
        return self.result

    def seed(self):
        files = corpus_files(self.options.work, self.count, self.options.seed)
        if self.mailbox.count() != 0:
            raise BenchError(f"{self.user}'s INBOX is not empty")
        say(f"[{self.count:,}] appending {self.count:,} messages to {self.user}'s INBOX ...")
        self.result["seed_seconds"] = self.mailbox.append(files)
        self.new_batches = self.extra_batches(NEW_MESSAGES, self.options.seed + 1000)
        self.spread_batches = self.extra_batches(SPREAD_EACH * len(SPREAD_FOLDERS), self.options.seed + 2000)

    def extra_batches(self, size, seed):
        """`repeat` batches of SIZE messages of their own corpus (SEED), for the incremental runs."""
        files = corpus_files(self.options.work, size * self.options.repeat, seed)
        return [files[i:i + size] for i in range(0, len(files), size)]

    def warm_up(self):
        say(f"[{self.count:,}] warm-up: one untimed initial sync of each")
        Mbsync(self.servers, self.user, self.dir / "warmup-mbsync").run()
        mount = AccountMount(self.options.binary, self.servers, self.user, self.dir / "warmup-mailfs")
        try:
            mount.launch()
            mount.wait_synced(INITIAL_TIMEOUT)
        finally:
            mount.stop()
        for name in ("warmup-mbsync", "warmup-mailfs"):
            shutil.rmtree(self.dir / name, ignore_errors=True)

    def initial(self, mount):
        """RUNS initial syncs of each, alternating, into fresh local state; the last mount stays
        up for the incremental syncs. No mount is up while mbsync's initial sync runs."""
        mine, theirs = self.result["mailfs"], self.result["mbsync"]
        mine["initial_runs"], theirs["initial_runs"], theirs["initial_nofsync_runs"] = [], [], []
        runs = self.options.initial_runs
        for run in range(1, runs + 1):
            mount.stop()  # the previous run's (nothing the first time)
            say(f"[{self.count:,}] initial sync {run}/{runs}: mbsync, mbsync with FSync no, mailfs")
            unsynced = Mbsync(self.servers, self.user, self.dir / "mbsync-nofsync", fsync=False)
            self.mbsync = Mbsync(self.servers, self.user, self.dir / "mbsync")
            for client, key in ((self.mbsync, "initial_runs"), (unsynced, "initial_nofsync_runs")):
                wall, rss, cpu = client.run()
                theirs[key].append({"wall": wall, "rss": rss, "cpu": cpu})
                expect(client.inbox_messages(), self.count, "mbsync's INBOX after the initial sync")
            shutil.rmtree(unsynced.run_dir, ignore_errors=True)
            mine["initial_runs"].append(self.mailfs_initial(mount))
            expect(mount.status()["messages"], self.count, "mailfs's folders after the initial sync")

    def mailfs_initial(self, mount):
        """One timed initial sync of a fresh mount. A mount that ends on its own (exit status 0:
        unmounted or signalled from outside, as happened once on this shared machine) is
        started again, once per mailbox size, and the report says so."""
        while True:
            mount.launch()
            try:
                ready = mount.wait_ready()
                wall = mount.wait_synced(INITIAL_TIMEOUT)
            except MountExited as error:
                if self.result["restarts"] or mount.process.returncode != 0:
                    raise
                self.result["restarts"].append(str(error).splitlines()[0])
                say(f"[{self.count:,}] {self.result['restarts'][-1]}; starting it again")
                mount.stop()
                continue
            return {"wall": wall, "ready": ready, "engine": mount.engine_seconds(), "cpu": mount.cpu_seconds(),
                    "hwm": mount.memory_kib()["VmHWM"]}

    def incremental(self, mount):
        mine, theirs = self.result["mailfs"], self.result["mbsync"]
        mine["nothing_new"], theirs["nothing_new"] = [], []
        mine["ten_new"], theirs["ten_new"] = [], []
        mine["spread_new"], theirs["spread_new"] = [], []
        mine["unasked_syncs"] = 0
        say(f"[{self.count:,}] incremental syncs, nothing new, x{self.options.repeat}")
        for _ in range(self.options.repeat):
            self.one_incremental(mount, "nothing_new")
        say(f"[{self.count:,}] incremental syncs, {NEW_MESSAGES} new, x{self.options.repeat}")
        for batch in self.new_batches:
            started = mount.syncs_started()
            self.mailbox.append(batch)
            self.one_incremental(mount, "ten_new", started)
        say(f"[{self.count:,}] incremental syncs, {SPREAD_EACH} new in each of {len(SPREAD_FOLDERS)} other "
            f"folders, x{self.options.repeat}")
        for batch in self.spread_batches:
            started = mount.syncs_started()
            for index, folder in enumerate(SPREAD_FOLDERS):
                self.mailbox.append(batch[index * SPREAD_EACH:(index + 1) * SPREAD_EACH], folder)
            self.one_incremental(mount, "spread_new", started)
        inbox = self.count + NEW_MESSAGES * len(self.new_batches)
        total = inbox + sum(len(batch) for batch in self.spread_batches)
        expect(mount.status()["messages"], total, "mailfs's folders after the incremental syncs")
        expect(self.mbsync.inbox_messages(), inbox, "mbsync's INBOX after the incremental syncs")
        expect(self.mbsync.messages(), total, "mbsync's folders after the incremental syncs")
        memory = mount.memory_kib()
        mine["rss_end"], mine["hwm_end"] = memory["VmRSS"], memory["VmHWM"]
        mine["log_read"], mine["status_read"] = mount.read_cost(".log"), mount.read_cost(".status")
        if self.options.idle_samples:
            say(f"[{self.count:,}] IDLE: {self.options.idle_samples} messages appended by another client, one at a time")
            mine["idle"] = idle_latency.measure(mount, self.servers, self.user, self.options.idle_samples)

    def one_incremental(self, mount, key, started=None):
        """One triggered mailfs sync, then one mbsync run; STARTED is the count of syncs mailfs
        had started before the append (to notice one it ran unasked)."""
        time.sleep(PAUSE_SECONDS)
        if started is not None and mount.syncs_started() != started:
            self.result["mailfs"]["unasked_syncs"] += 1
        wall, engine, cpu = mount.sync_now()
        self.result["mailfs"][key].append({"wall": wall, "engine": engine, "cpu": cpu})
        time.sleep(PAUSE_SECONDS)
        wall, rss, cpu = self.mbsync.run()
        self.result["mbsync"][key].append({"wall": wall, "rss": rss, "cpu": cpu})


def expect(actual, wanted, what):
    if actual != wanted:
        raise BenchError(f"{what}: {actual} messages, expected {wanted}")


def disk_usage(path):
    """Bytes of disk blocks allocated under PATH, or None."""
    result = subprocess.run(["du", "-s", "--block-size=1", str(path)], capture_output=True, text=True)
    return int(result.stdout.split()[0]) if result.returncode == 0 and result.stdout else None
