"""Where the mount's CPU goes during a batch: `perf record -g` of the mount process, reported
as mailfs's own functions with the largest share of samples, callees included."""
import re
import shutil
import signal
import subprocess
import time

from swift_symbols import demangled

ATTACH_SECONDS = 1.0
TOP_CHAINS = 6
# Mangled Swift names start with their module: mailfs's own modules, not GRDB, NIO or the stdlib.
OWN_MODULES = ("$s5Store", "$s4Sync", "$s4FUSE", "$s8MailCore", "$s4IMAP", "$s4SMTP", "$s6mailfs")
WRAPPERS = re.compile(r"^(?:partial apply for |closure #\d+ in |specialized |implicit closure #\d+ in )+")


def profiled(mount, work, action):
    """Runs ACTION while perf samples the mount; returns (what ACTION returned, the note)."""
    if not shutil.which("perf"):
        return action(), "Profile: perf is not installed, so no profile was taken."
    data = work / "perf.data"
    recorder = subprocess.Popen(["perf", "record", "-g", "-F", "499", "-p", str(mount.process.pid), "-o", str(data)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(ATTACH_SECONDS)
        outcome = action()
    finally:
        recorder.send_signal(signal.SIGINT)
        recorder.wait(timeout=120)
    try:
        return outcome, _hot_functions(data)
    finally:
        data.unlink(missing_ok=True)


def _hot_functions(data):
    report = subprocess.run(["perf", "report", "-i", str(data), "--stdio", "--children", "--sort", "sym",
                             "-g", "none", "--percent-limit", "3"], capture_output=True, text=True)
    rows = []
    for line in report.stdout.splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[0].endswith("%") and fields[2] == "[.]" and fields[3].startswith(OWN_MODULES):
            rows.append((fields[0], fields[3]))
    if not rows:
        return "Profile: perf recorded no samples in mailfs's own code."
    chains, seen = {}, set()  # percent -> functions with that share: one call chain
    for (percent, _), name in zip(rows, demangled([symbol for _, symbol in rows])):
        plain = WRAPPERS.sub("", name)
        if plain not in seen:
            seen.add(plain)
            chains.setdefault(percent, []).append(plain)
    shown = [f"{percent} {' → '.join(names)}" for percent, names in list(chains.items())[:TOP_CHAINS]]
    return ("`perf record -g` of the mount during that batch, mailfs's own functions by share of the mount's "
            f"CPU samples, callees included (→: a caller and its callee with the same share): {'; '.join(shown)}.")
