"""Where one message's time goes on each side, from `strace -f -ttt` of one more message each
(not in the tables: tracing slows both down). Read off the trace: the password command (its
execve and exit), the SMTP connection (connect to close on that socket) and the pauses in it,
the gaps of PAUSE_SECONDS or more between two calls on the socket, where the client waited on
the network; plus Postfix's acceptance from arrivals.py.
"""
import re
import shutil
import signal
import subprocess
import time

from figures import seconds

ATTACH_SECONDS = 1.5   # lets strace attach to every thread of the mount first
PAUSE_SECONDS = 0.020
SOCKET_CALLS = ("read", "write", "readv", "writev", "sendto", "recvfrom", "sendmsg", "recvmsg")
TRACED = "trace=connect,close,execve,setsockopt," + ",".join(SOCKET_CALLS)
LINE = re.compile(r"^(\d+)\s+(\d+\.\d+) (.*)$")


def where_time_goes(options, servers, mount, rounds):
    if not shutil.which("strace"):
        return "Where the time goes: strace is not installed, so no trace was taken."
    port = int(servers.env["SMTPS_PORT"])
    output = options.work / "strace.txt"
    try:
        mailfs = _mailfs_part(mount, rounds, output, port)
        msmtp = _msmtp_part(rounds, output, port)
    finally:
        output.unlink(missing_ok=True)
    return ("Where the time goes (one more message of each under `strace -f -ttt`, not in the tables; "
            f"tracing stretches every step): {mailfs} {msmtp}")


def _mailfs_part(mount, rounds, output, port):
    tracer = subprocess.Popen(["strace", "-f", "-ttt", "-e", TRACED, "-o", str(output), "-p", str(mount.process.pid)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(ATTACH_SECONDS)
        sample = rounds.mailfs_one("traced-mailfs")
        wall = time.time() - time.perf_counter()
    finally:
        tracer.send_signal(signal.SIGINT)
        tracer.wait(timeout=30)
    start = sample["at"] + wall
    events = _events(output.read_text(errors="replace"))
    password = _password_command(events)
    talk = _conversation(events, port)
    if talk is None:
        return "mailfs: the SMTP connection was not found in the trace."
    parts = [f"mailfs, from `cp` returning: Postfix accepted the message at +{seconds(sample['accepted'])}"]
    if password:
        parts.append(f"the password command ran from +{seconds(password[0] - start)} to "
                     f"+{seconds(password[1] - start)}")
    return "; ".join(parts + [_conversation_text(talk, start)]) + "."


def _msmtp_part(rounds, output, port):
    sample = rounds.msmtp_one("traced-msmtp", ["strace", "-f", "-ttt", "-e", TRACED, "-o", str(output)])
    events = _events(output.read_text(errors="replace"))
    execs = [stamp for _, stamp, call in events if call.startswith("execve(") and "msmtp" in call]
    talk = _conversation(events, port)
    if not execs or talk is None:
        return "msmtp: the SMTP connection was not found in the trace."
    parts = [f"msmtp, from its exec: Postfix accepted the message at +{seconds(sample['accepted'])} "
             f"(exit at +{seconds(sample['exited'])})"]
    password = _password_command(events)
    if password:
        parts.append(f"the password command ran from +{seconds(password[0] - execs[0])} to "
                     f"+{seconds(password[1] - execs[0])}")
    return "; ".join(parts + [_conversation_text(talk, execs[0])]) + "."


def _events(text):
    """(pid, epoch seconds, call text) of every line of an `strace -f -ttt -o` file."""
    found = []
    for line in text.splitlines():
        match = LINE.match(line)
        if match:
            found.append((int(match.group(1)), float(match.group(2)), match.group(3)))
    return found


def _password_command(events):
    """(start, end) of the first `sh -c` that ran the password command, or None."""
    for pid, stamp, call in events:
        if call.startswith('execve("/bin/sh"') and "printenv" in call:
            ends = [when for who, when, text in events if who == pid and text.startswith("+++ exited")]
            return (stamp, ends[0]) if ends else None
    return None


def _conversation(events, port):
    """The first connection to PORT: {"connect", "close", "calls", "pauses", "nodelay"} or None."""
    opened = re.compile(rf"^connect\((\d+), .*htons\({port}\)")
    nodelay = re.compile(r"^setsockopt\((\d+), SOL_TCP, TCP_NODELAY")
    owner = descriptor = None
    stamps, nodelay_set = [], set()
    for pid, stamp, call in events:
        if descriptor is None:
            if match := nodelay.match(call):
                nodelay_set.add((pid, match.group(1)))
            elif call.startswith("close("):
                nodelay_set.discard((pid, call[6:].partition(")")[0]))
            elif match := opened.match(call):
                owner, descriptor, stamps = pid, match.group(1), [stamp]
            continue
        if pid != owner:
            continue
        if call.startswith(f"close({descriptor})"):
            stamps.append(stamp)
            gaps = [later - earlier for earlier, later in zip(stamps, stamps[1:])]
            return {"connect": stamps[0], "close": stamp, "calls": len(stamps) - 2,
                    "pauses": [gap for gap in gaps if gap >= PAUSE_SECONDS],
                    "nodelay": (owner, descriptor) in nodelay_set}
        if nodelay.match(call) and nodelay.match(call).group(1) == descriptor:
            nodelay_set.add((pid, descriptor))
        elif call.startswith(tuple(f"{name}({descriptor}," for name in SOCKET_CALLS)):
            stamps.append(stamp)
    return None


def _conversation_text(talk, start):
    pauses = talk["pauses"]
    waited = (f"{len(pauses)} pause(s) of {', '.join(seconds(pause) for pause in pauses)} between two calls on "
              "the socket" if pauses else f"no pause of {seconds(PAUSE_SECONDS)} or more on the socket")
    nagle = "TCP_NODELAY set" if talk["nodelay"] else "TCP_NODELAY not set: Nagle's algorithm on"
    return (f"the SMTP connection ({nagle}) went from connect() at +{seconds(talk['connect'] - start)} to "
            f"close() at +{seconds(talk['close'] - start)} ({talk['calls']} reads and writes, TLS included), "
            f"with {waited}")
