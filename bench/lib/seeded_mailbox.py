"""The seeded mailbox: messages from bench/generate_corpus.py, appended into one IMAP INBOX."""
import subprocess
import sys
import time
from pathlib import Path

from bulk_append import append_all, login
from servers import REPO, BenchError

GENERATOR = REPO / "bench" / "generate_corpus.py"


def corpus_files(work_dir, count, seed):
    """COUNT message files of a corpus generated with SEED (cached under WORK_DIR), in name order.

    The generator spreads its messages over a Maildir++ tree; every message of every folder is
    taken, so the one IMAP mailbox gets exactly COUNT messages with the corpus's size mix.
    """
    outdir = Path(work_dir) / f"corpus-{count}-seed{seed}"
    done = outdir.with_name(outdir.name + ".done")
    if not done.exists():
        if outdir.exists():
            subprocess.run(["rm", "-rf", str(outdir)], check=True)
        print(f"generating {count:,} messages (seed {seed}) ...", file=sys.stderr)
        result = subprocess.run([sys.executable, str(GENERATOR), str(count), str(outdir), "--seed", str(seed)],
                                capture_output=True, text=True)
        if result.returncode != 0:
            raise BenchError(f"generate_corpus.py failed:\n{result.stderr}")
        done.touch()
    files = sorted(path for path in outdir.glob("**/*") if path.is_file() and path.parent.name in ("cur", "new"))
    if len(files) != count:
        raise BenchError(f"{outdir} holds {len(files)} messages, expected {count}")
    return files


class Mailbox:
    """One user's mailbox on the test Dovecot (its INBOX, and the empty folders it starts
    with), filled over IMAP as another mail client would."""

    def __init__(self, servers, user):
        self.servers = servers
        self.user = user

    def _session(self):
        try:
            return login("127.0.0.1", self.servers.port, self.servers.ca_file, self.user,
                         self.servers.password(self.user))
        except (RuntimeError, OSError) as error:
            raise BenchError(f"IMAP login as {self.user} failed: {error}") from error

    def append(self, files, folder="INBOX"):
        """Appends FILES to FOLDER (INTERNALDATE = now, no flags); returns the seconds it took."""
        started = time.monotonic()
        session = self._session()
        try:
            append_all(session, folder, [str(path) for path in files])
            session.simple("LOGOUT")
        except (RuntimeError, OSError) as error:
            raise BenchError(f"appending to {self.user}'s {folder} failed: {error}") from error
        return time.monotonic() - started

    def count(self):
        """Messages in the INBOX, by STATUS."""
        session = self._session()
        try:
            session.simple('STATUS "INBOX" (MESSAGES)')
            status = b" ".join(line for line in session.untagged if line.startswith(b"* STATUS"))
            session.simple("LOGOUT")
        except (RuntimeError, OSError) as error:
            raise BenchError(f"STATUS of {self.user}'s INBOX failed: {error}") from error
        words = status.replace(b"(", b" ").replace(b")", b" ").split()
        if b"MESSAGES" not in words or words.index(b"MESSAGES") + 1 >= len(words):
            raise BenchError(f"unexpected STATUS answer: {status!r}")
        return int(words[words.index(b"MESSAGES") + 1])
