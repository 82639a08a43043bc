"""The measured phases of one run: cold first reads against imaplib, then cached re-reads
against local disk, and optionally a profile of two more cold reads."""
import subprocess

import mount_reads
import profiling
import raw_fetch
import timing
from scaffold import say
from payload import ATTACHMENT_NAME, ATTACHMENT_PART
from servers import BenchError


class Phases:
    def __init__(self, options, servers, mount, made, uid, result):
        self.options, self.servers, self.mount = options, servers, mount
        self.made, self.uid, self.result = made, uid, result
        self.path = mount_reads.find_attachment(mount, ATTACHMENT_NAME)

    def first_reads(self):
        """An untimed warm-up of each side, then SAMPLES alternating rounds."""
        say("first reads: warm-up ...")
        self._mount_cold()
        self._raw()
        mount, raw = self.result.setdefault("mount_cold", []), self.result.setdefault("raw", [])
        for round_number in range(self.options.samples):
            say(f"first reads: round {round_number + 1} of {self.options.samples}")
            sides = [(mount, self._mount_cold), (raw, self._raw)]
            for samples, take in sides if round_number % 2 == 0 else reversed(sides):
                samples.append(take())
        self.result["encoded_bytes"] = raw[-1]["encoded_bytes"]

    def cached_reads(self, local_copy):
        """`cat` of the cached attachment and of a local copy: cold (when root may drop the
        page cache), then warm; fails if any of them made mailfs download again."""
        self._mount_cold()  # leaves the attachment in the cache whatever happened before
        downloads = len(mount_reads.downloads(self.mount))
        self.result["drop_caches"] = timing.can_drop_caches()
        conditions = ["cold", "warm"] if self.result["drop_caches"] else ["warm"]
        for condition in conditions:
            say(f"cached re-reads ({condition}) ...")
            cold = condition == "cold"
            if not cold:
                mount_reads.cat_seconds(self.path, cold=False)
                mount_reads.cat_seconds(local_copy, cold=False)
            sides = [(self.result.setdefault(f"mount_cat_{condition}", []), self.path),
                     (self.result.setdefault(f"disk_cat_{condition}", []), local_copy)]
            for round_number in range(self.options.samples):
                for samples, path in sides if round_number % 2 == 0 else reversed(sides):
                    samples.append({"seconds": mount_reads.cat_seconds(path, cold)})
        if len(mount_reads.downloads(self.mount)) != downloads:
            raise BenchError("mailfs downloaded the attachment again during the cached re-reads")

    def profile(self):
        """One more cold read under the profilers; the note says where the time went."""
        say("profiling two more cold reads ...")
        try:
            return profiling.cold_read_profile(self.options.binary, self.mount, self.path, self.options.work,
                                               self.servers.port)
        except (OSError, subprocess.SubprocessError, BenchError) as error:
            return f"Profile: failed ({error}); the table does not depend on it."

    def _mount_cold(self):
        sample = mount_reads.cold_sample(self.options.binary, self.mount, self.path, self._logins)
        self._check(sample, "the mount")
        return sample

    def _raw(self):
        sample = raw_fetch.sample(self.servers, self.options.user, self.uid, ATTACHMENT_PART)
        self._check(sample, "imaplib")
        return sample

    def _check(self, sample, side):
        if sample["sha256"] != self.made.sha256:
            raise BenchError(f"{side} returned different bytes than the attachment (SHA-256 mismatch)")

    def _logins(self):
        """Logins of the benchmark's user in Dovecot's log so far."""
        log = self.servers.state_dir / "dovecot" / "main.log"
        try:
            text = log.read_text(errors="replace")
        except OSError:
            return 0
        return text.count(f" Login: user=<{self.options.user}>,")
