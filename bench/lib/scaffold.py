"""The scaffold every benchmark stands on: progress lines, Ctrl-C and signals, the options and
the run of a benchmark against the test servers, and the Markdown section it writes.

Every entry script outside bench/lib (bench/*/run.py, bench/uring/measure.py) begins with the
same two lines, the one way a benchmark imports bench/lib:

    sys.dont_write_bytecode = True  # no __pycache__ next to the sources
    sys.path.insert(1, str(Path(__file__).resolve().parents[1] / "lib"))

A benchmark's own modules sit beside its script, which Python puts first on the path; bench/lib
comes right after, so a benchmark's module named like one of bench/lib's (bench/sync/report.py)
stays its own. What two benchmarks share lives here in bench/lib (docs/DECISIONS.md, "The
benchmarks' one scaffold, imported by path").
"""
import argparse
import os
import shutil
import signal
import sys
from pathlib import Path

import machine
from servers import BenchError, Servers


def say(text):
    """A progress line, on stderr: stdout is the section."""
    print(text, file=sys.stderr, flush=True)


def run_until_interrupted(main, stopped):
    """Runs a bench's `main` and exits with its status. SIGTERM and SIGHUP end the run like
    Ctrl-C does, so its cleanup (`finally`: servers, mounts) still runs; then one line says
    what was stopped."""
    def interrupt(signum, _frame):
        raise KeyboardInterrupt(f"signal {signum}")
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, interrupt)
    try:
        sys.exit(main())
    except KeyboardInterrupt as interruption:
        sys.exit(f"interrupted ({interruption or 'Ctrl-C'}); {stopped} stopped")


def parser(doc):
    """An argument parser described by the first paragraph of the script's docstring."""
    return argparse.ArgumentParser(description=doc.split("\n\n")[0])


def add_server_options(options, work, output):
    """--work, --keep and --output of a benchmark against the test servers: WORK is the default
    scratch directory (under /tmp, which the servers' users can reach), OUTPUT where its
    section goes."""
    options.add_argument("--work", type=Path, default=Path(work),
                         help=f"scratch directory, under /tmp so the servers can reach it (default {work})")
    options.add_argument("--keep", action="store_true",
                         help="keep the stores, mount directories and server state under --work (default: removed)")
    options.add_argument("--output", type=Path, default=Path(output), help="where to write the section")


def run_section(options, measure, markdown, scratch=(), expected=(BenchError,), results=None):
    """The whole run of a benchmark against the test servers, as root, in OPTIONS.work.

    `measure(servers, errors)` starts the servers and measures; what it returns is handed to
    `markdown(measured, servers, facts, errors)`, which writes the section (None when measure
    failed). A failure of the kinds EXPECTED ends the measuring and is listed in the section;
    the servers are stopped whatever happens and, unless --keep, removed with the SCRATCH
    paths under OPTIONS.work. The section goes to OPTIONS.output and stdout and, when RESULTS
    names a file, in place of its own section there. Returns the exit status: 1 if anything
    failed."""
    if os.geteuid() != 0:
        sys.exit("run.py needs root: the test servers switch users")
    options.work.mkdir(parents=True, exist_ok=True)
    facts = machine.facts(options.work, options.binary)
    errors, measured = [], None
    servers = Servers(options.work / "state")
    try:
        measured = measure(servers, errors)
    except expected as error:
        errors.append(f"{first_line(error)} (details on stderr)")
        say(f"failed: {error}")
    finally:
        servers.stop()
        if not options.keep:
            servers.remove()
            remove_scratch(options.work, scratch)
    text = markdown(measured, servers, facts, errors)
    write_section(text, options.output)
    if results:
        replace_section(Path(results), text)
    return 1 if errors else 0


def first_line(error):
    text = str(error)
    return text.splitlines()[0] if text else repr(error)


def remove_scratch(work, names):
    """Removes each named file or directory under WORK; a directory whose `mnt` is still a
    mount (its unmount failed) is left, never deleted through the mount."""
    for name in names:
        path = work / name
        if path.is_dir():
            if not os.path.ismount(path / "mnt"):
                shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)


def write_section(text, output):
    Path(output).write_text(text)
    print(text)


def replace_section(results, text):
    """Puts TEXT in place of its section of RESULTS (from TEXT's `## ` heading up to the next),
    or at its end when it has none."""
    heading = text.splitlines()[0]
    lines = results.read_text().splitlines() if results.exists() else []
    start = next((i for i, line in enumerate(lines) if line == heading), None)
    if start is None:
        lines += [""] + text.rstrip("\n").splitlines()
    else:
        end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
        lines[start:end] = text.rstrip("\n").splitlines() + [""]
    results.write_text("\n".join(lines) + "\n")
