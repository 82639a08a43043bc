"""Method notes under the table: what was measured, how, and on what."""
import os

from cpu import cpu_model
from machine import first_line
from measure import NEW_MESSAGES, PAUSE_SECONDS, SPREAD_EACH, SPREAD_FOLDERS


def seeding(results):
    parts = [f"{r['messages']:,} in {r['seed_seconds']:.1f} s" for r in results if "seed_seconds" in r]
    return "; ".join(parts) if parts else "not run"


def runs_line(results):
    """Every initial sync's wall time, so the spread behind the medians is visible."""
    def walls(runs):
        return ", ".join(f"{run['wall']:.2f}" for run in runs or [])
    parts = [f"{r['messages']:,}: mailfs {walls(r['mailfs'].get('initial_runs'))}; mbsync "
             f"{walls(r['mbsync'].get('initial_runs'))}; mbsync `FSync no` {walls(r['mbsync'].get('initial_nofsync_runs'))}"
             for r in results]
    return "Initial sync runs, wall seconds in run order: " + " / ".join(parts) + "." if parts else None


def method(options, servers, results, idle, kernel):
    unasked = sum(r["mailfs"].get("unasked_syncs", 0) for r in results)
    filesystem = first_line(["findmnt", "-no", "FSTYPE", "--target", options.work])
    load = " ".join(f"{value:.2f}" for value in os.getloadavg())
    idle_text = f" ({idle['rss'] / 1024:.1f} MiB)" if idle else ""
    notes = [
        f"Server: Debian's Dovecot {servers.dovecot_version()} started by `.ci/servers/start.sh` on 127.0.0.1, "
        "IMAPS with the test CA (CONDSTORE and QRESYNC offered). Both clients sync the same account on the "
        f"same server, never at the same time: {options.initial_runs} rounds of \"mbsync initial sync into a fresh "
        "Maildir, the same with `FSync no`, then mailfs initial sync into a fresh store\" (medians shown; peaks "
        "are the highest run), "
        "then the incremental runs in turn against the last mount, which stays up.",
        f"Mailbox: messages from `bench/generate_corpus.py N --seed {options.seed}` (every folder of the generated "
        "tree into the one INBOX: median about 5 KB, 10 % with 20 KB to 1 MB attachments, a few of several MB). "
        "Appended over IMAP by `bench/lib/bulk_append.py` with MULTIAPPEND + LITERAL+, 250 messages a command "
        f"({seeding(results)}; `seed.py`, one APPEND per round trip, took 27 ms a message when tried here: 4.5 min for 10,000). "
        "INTERNALDATE is the append time, so all of it is inside mailfs's 30-day window. The account's other "
        "folders (Sent, Drafts, Trash, Junk, Archive) are empty; both clients list and sync all of them.",
        "mailfs: release build, `mailfs mount MNT --config C --data-dir D` into a fresh store, every setting at "
        "its default except `poll_interval_seconds = 3600` (no periodic sync inside a measurement). Initial sync "
        "= exec until the first \"sync finished\" line of the account's `.log` (the engine "
        "sets `phase: idle` and `last_sync` just before, and `.status` is checked after); mount ready = exec "
        "until `.status` can be read. Incremental = `sync` written to `.control` until the next \"sync "
        "finished\" line; the engine's own figure is that line's (0.1 s steps). Every read of `.log` costs the "
        "mount CPU (see the `.log`/`.status` rows; the cost grows with the lines in `.log`), so polls back "
        "off: every 5 % of the time waited so far, 5 to 100 ms apart; mailfs's CPU figures include serving them. mailfs fetches flags, "
        "INTERNALDATE, size and Message-ID, then the raw bytes of messages up to 256 KB (BODYSTRUCTURE and "
        "text parts of larger ones), parses and indexes them (FTS, threads) before it reports idle.",
        "CPU time: mailfs = utime + stime of the mount process (/proc/PID/stat, all threads; deltas for the "
        "incremental runs); mbsync = GNU time's %U + %S (10 ms steps). Dovecot's own CPU is not counted for "
        "either. On a loaded machine wall times stretch with CPU time, so this is the steadier figure.",
        "Peak RSS: mailfs = VmHWM of the mount process right after the initial sync; \"above the idle mount\" "
        "subtracts the VmRSS of a mount of an account with no mail (carol: same six empty folders) 2 s after "
        f"its sync{idle_text}. "
        "mbsync = GNU time's %M (ru_maxrss; not wait4 from Python, whose forked child would keep the interpreter's high-water mark through exec).",
        f"mbsync: {first_line(['mbsync', '--version'])}, `Sync Pull`, `Patterns *`, `Create Near`, defaults "
        "otherwise (`FSync yes`: an fsync per message, which mailfs's SQLite store in WAL mode with "
        "`synchronous = NORMAL` does not do; hence the extra `FSync no` row); wall time from exec to exit into a "
        "fresh Maildir. Host `localhost` (isync 1.4 "
        "cannot match a certificate's IP address; it is 127.0.0.1 here). It downloads every message whole.",
        ("Warm-up: none (--no-warmup). Whichever client fetches first pays for Dovecot building its cache."
         if options.no_warmup else
         "Warm-up: one untimed initial sync of each client first (mbsync, then mailfs, into throwaway local "
         "state), so Dovecot's index and cache files exist for every field either client fetches."),
        f"Incremental: {options.repeat} syncs with nothing new, then {options.repeat} times \"append "
        f"{NEW_MESSAGES} messages (one MULTIAPPEND), sync\" (the mount's IDLE on the INBOX usually fetches them "
        f"before the triggered sync runs), then {options.repeat} times \"append {SPREAD_EACH} messages to each of "
        f"{', '.join(SPREAD_FOLDERS)}, sync\" (no IDLE watches those); the median is shown. {PAUSE_SECONDS} s pause before "
        "every incremental run of either client (mbsync sleeps 1 s when its Maildir changed within the current "
        "second). Message counts are checked after every initial sync and at the end on both sides."
        + (f" mailfs started {unasked} syncs on its own between an append and the trigger." if unasked else ""),
        runs_line(results),
        *[f"{r['messages']:,}: a mailfs mount ended on its own during an initial sync ({text}); that run was "
          "started again." for r in results for text in r.get("restarts", [])],
        f"Machine: {cpu_model()}, {os.cpu_count()} cores, Linux {kernel}, {filesystem} under {options.work}; "
        f"load average (1, 5, 15 min) at the start {options.load_at_start}, at the end {load}. Other processes "
        "on a shared machine stretch both clients' times, mbsync's fsyncs most: compare the ratios of one run, "
        "not figures across runs.",
    ]
    return [note for note in notes if note]
