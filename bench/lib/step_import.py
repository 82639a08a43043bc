"""Getting the mail: `mailfs import` against `cp -a` (and `notmuch new` as the indexing peer)."""
import os
import shutil
import statistics
import subprocess

import timing
from compare import Setup
from rows import Row

MIB = 2**20


# Rounds of "cp -a, then mailfs import", medians reported: one `cp -a` + `sync` of the
# 1.3 GB Maildir took anywhere from 8.5 to 30.6 s on the same VM within minutes.
ROUNDS = 3


def measure(setup: Setup, messages: int) -> list:
    """Imports into a fresh store and copies into a fresh directory, each from a cold source,
    ROUNDS times in turn; the last round's store and copy stay for the next steps.

    Each time includes a `sync` afterwards: the mail is only "had" once it is on disk,
    and cp leaves its writes in the page cache while SQLite syncs its own.
    """
    copies, imports, peak_kib = [], [], 0
    for _ in range(ROUNDS):
        shutil.rmtree(setup.copy, ignore_errors=True)
        shutil.rmtree(setup.store, ignore_errors=True)
        setup.drop_caches()
        copies.append(timed_with_sync(["cp", "-a", str(setup.corpus), str(setup.copy)]).seconds)
        setup.drop_caches()
        imported = timing.run([str(setup.binary), "import", setup.account, str(setup.corpus),
                               "--data-dir", str(setup.store)], env=setup.env)
        imports.append(imported.seconds + timing.run(["sync"]).seconds)
        peak_kib = max(peak_kib, imported.max_rss_kib)
    summary = imported.output.decode(errors="replace").strip().replace("\n", " / ")
    setup.notes.append(f"`mailfs import` said: {summary}")
    setup.notes.append("import rounds (cp -a + sync / mailfs import + sync): "
                       + ", ".join(f"{c:.2f} s / {i:.2f} s" for c, i in zip(copies, imports)))
    copy_seconds, import_seconds = statistics.median(copies), statistics.median(imports)
    state = f"{setup.cold_label} source, + sync, median of {ROUNDS}"
    rows = [Row("import", f"import {messages:,} msgs: mailfs import vs cp -a", state,
                import_seconds, copy_seconds, "s")]
    store_mib, maildir_mib = disk_used(setup.store) / MIB, disk_used(setup.corpus) / MIB
    if setup.notmuch:
        indexed = index_with_notmuch(setup)
        rows.append(Row("import-indexed", "import + index: mailfs import vs cp -a + notmuch new", state,
                        import_seconds, copy_seconds + indexed.seconds, "s"))
        rows.append(Row("import-rss", "peak RSS while indexing: import vs notmuch new", "-",
                        peak_kib / 1024, indexed.max_rss_kib / 1024, "MiB"))
        rows.append(Row("disk-indexed", "disk used: store vs Maildir + notmuch db", "-", store_mib,
                        maildir_mib + disk_used(setup.copy / ".notmuch") / MIB, "MiB"))
    else:
        rows.append(Row("import-rss", "peak RSS of mailfs import", "-", peak_kib / 1024, None, "MiB"))
    rows.append(Row("disk", "disk used: store vs Maildir", "-", store_mib, maildir_mib, "MiB"))
    shutil.rmtree(setup.copy, ignore_errors=True)
    return rows


def index_with_notmuch(setup: Setup) -> timing.Run:
    """`notmuch new` over the fresh copy (never the corpus: it writes .notmuch/ into the tree)."""
    config = setup.copy.with_name("notmuch-config")
    config.write_text(f"[database]\npath={setup.copy}\n[user]\nname=Bench User\n"
                      "primary_email=bench@bench.example\n[new]\ntags=unread;inbox;\n"
                      "[maildir]\nsynchronize_flags=true\n")
    setup.drop_caches()
    env = dict(timing.ENV, NOTMUCH_CONFIG=str(config), HOME=str(setup.copy.parent))
    indexed = timing.run(["notmuch", "new", "--quiet"], env=env)
    indexed.seconds += timing.run(["sync"]).seconds
    return indexed


def timed_with_sync(argv) -> timing.Run:
    done = timing.run(argv, keep_output=False)
    done.seconds += timing.run(["sync"]).seconds
    return done


def disk_used(path) -> int:
    """Bytes allocated on disk under path (du -s --block-size=1), 0 when absent."""
    if not os.path.exists(path):
        return 0
    output = subprocess.run(["du", "-s", "--block-size=1", str(path)], capture_output=True, text=True).stdout
    return int(output.split()[0]) if output.strip() else 0
