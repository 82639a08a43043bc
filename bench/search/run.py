#!/usr/bin/env python3
"""Search benchmark of issue 12: `ls` of search directories (first time and again) against
`notmuch search --output=files` on the same 50,000 generated messages, 20 queries of each
kind; listing a 10,000-result search directory against `ls` of the 10,000-message folder;
a 50,000-result directory and the mount's memory; the size of the full-text index against
notmuch's database.

    bench/search/run.py --binary PATH [--messages 50000] [--seed 1] [--keep]

Generates (or reuses) bench/generate_corpus.py's corpus under bench/work/, imports it into
its own store and indexes it with `notmuch new` (database beside it, the tree untouched;
both reused while the corpus is the same), mounts the store, measures, prints a Markdown
section and writes it to bench/search/results.md. Page cache warm on both sides: "first
time" is the first `ls` of that directory in this mount (nothing cached by the kernel or by
mailfs), "again" a second `ls` (the kernel's cached listing).
"""
import shutil
import sqlite3
import statistics
import subprocess
import sys
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ next to the sources
sys.path.insert(1, str(Path(__file__).resolve().parents[1] / "lib"))

import corpus  # noqa: E402
import machine  # noqa: E402
import queries  # noqa: E402
import scaffold  # noqa: E402
import timing  # noqa: E402
from mount import Mount  # noqa: E402

HERE = Path(__file__).resolve().parent

ACCOUNT = "bench"
GOAL_RATIO = 1.0          # median first-time ls / notmuch search --output=files
GOAL_FIRST = 0.050        # seconds, median first-time ls
GOAL_LIST_RATIO = 2.0     # ls of a 10,000-result search / ls of the 10,000-message folder
LIST_SAMPLES = 6
MIB = 2**20


def parse_arguments():
    parser = scaffold.parser(__doc__)
    parser.add_argument("--binary", type=Path, required=True, help="the mailfs binary (a release build)")
    parser.add_argument("--messages", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the store and notmuch's database for the next run")
    parser.add_argument("--output", type=Path, default=HERE / "results.md")
    options = parser.parse_args()
    options.binary = options.binary.resolve()
    return options


class Sides:
    """The corpus imported into a store and indexed by notmuch, and the mount of that store."""

    def __init__(self, options):
        self.work = HERE.parent / "work"
        self.tree, self.summary = corpus.ensure(HERE.parent / "generate_corpus.py", self.work, options.messages,
                                                options.seed)
        self.store = self.work / f"search-store-{options.messages}-seed{options.seed}"
        self.notmuch_dir = self.work / f"search-notmuch-{options.messages}-seed{options.seed}"
        self.env = dict(timing.ENV, XDG_CONFIG_HOME=str(self.work / "xdg-config"),
                        XDG_DATA_HOME=str(self.work / "xdg-data"))
        self.notmuch_env = dict(timing.ENV, NOTMUCH_CONFIG=str(self.notmuch_dir / "config"), HOME=str(self.notmuch_dir))
        self.binary = options.binary
        self.mount_point = self.work / "mnt"
        self.notes = []

    def prepare(self):
        """Imports and indexes unless a previous run left both done for this corpus."""
        if not (self.store / "import.done").is_file():
            shutil.rmtree(self.store, ignore_errors=True)
            imported = timing.run([str(self.binary), "import", ACCOUNT, str(self.tree), "--data-dir", str(self.store)],
                                  env=self.env)
            (self.store / "import.done").write_text(f"{imported.seconds:.1f}\n")
        if not (self.notmuch_dir / "new.done").is_file():
            shutil.rmtree(self.notmuch_dir, ignore_errors=True)
            (self.notmuch_dir / "db").mkdir(parents=True)
            (self.notmuch_dir / "config").write_text(
                f"[database]\npath={self.notmuch_dir / 'db'}\nmail_root={self.tree}\n[user]\nname=Bench User\n"
                "primary_email=bench@bench.example\n[new]\ntags=\n[search]\nexclude_tags=\n"
                "[maildir]\nsynchronize_flags=true\n")
            indexed = timing.run(["notmuch", "new", "--quiet"], env=self.notmuch_env)
            (self.notmuch_dir / "new.done").write_text(f"{indexed.seconds:.1f}\n")
        # Read now: the report is written after `remove` (unless --keep) deleted both.
        self.import_seconds = (self.store / "import.done").read_text().strip()
        self.notmuch_seconds = (self.notmuch_dir / "new.done").read_text().strip()

    def tree_paths(self) -> dict:
        """Maildir++ folder name ("" for the inbox) -> the folder's path in the mount."""
        with sqlite3.connect(f"file:{self.store / 'mailfs.sqlite'}?mode=ro", uri=True) as db:
            rows = db.execute("SELECT imapPath, path FROM folder WHERE isSelectable = 1").fetchall()
        paths = {}
        for source, path in rows:
            name = "" if path == "inbox" else "." + source.replace("/", ".")
            paths[name] = path
        return paths

    def mount(self) -> Mount:
        return Mount(self.binary, self.mount_point, self.store, self.env, self.work / "mount-search.log")

    def remove(self):
        shutil.rmtree(self.store, ignore_errors=True)
        shutil.rmtree(self.notmuch_dir, ignore_errors=True)


def ls(path: Path) -> timing.Run:
    return timing.run(["ls", str(path)])


def compare_queries(sides: Sides, mount: Mount) -> dict:
    """Kind -> list of (query, notmuch run, first ls, again ls), alternating the sides."""
    paths = sides.tree_paths()
    search = sides.mount_point / ACCOUNT / "search"
    # Both sides warm: notmuch's database pages and the store's, one query each, not timed.
    timing.run(["notmuch", "search", "--output=files", "quarterly"], env=sides.notmuch_env)
    ls(search / "warm-up")
    results = {}
    for kind, notmuch_queries in queries.kinds(sorted(paths)).items():
        rows = []
        for query in notmuch_queries:
            theirs = timing.run(["notmuch", "search", "--output=files", query], env=sides.notmuch_env)
            directory = search / queries.mailfs_spelling(query, paths)
            first, again = ls(directory), ls(directory)
            rows.append((query, theirs, first, again))
        results[kind] = rows
    return results


def big_listing(sides: Sides) -> dict:
    """ls of the 10,000-message folder and of the search for that folder's messages, each
    the first listing in a fresh mount (alternating which goes first), then again."""
    paths = sides.tree_paths()
    folder = paths.get(".Big", "Big")
    times = {"folder-first": [], "search-first": [], "folder-again": [], "search-again": []}
    counts = {}
    for sample in range(LIST_SAMPLES):
        with sides.mount() as mount:
            mount.start()
            root = sides.mount_point / ACCOUNT
            order = [("folder", root / folder), ("search", root / "search" / f"folder:{folder.replace('/', '.')}")]
            for label, path in order if sample % 2 == 0 else reversed(order):
                first = ls(path)
                times[f"{label}-first"].append(first.seconds)
                times[f"{label}-again"].append(ls(path).seconds)
                counts[label] = first.lines
    return {"times": {key: statistics.median(values) for key, values in times.items()}, "counts": counts}


def everything(sides: Sides) -> dict:
    """A search matching every message, listed in a fresh mount: time and the mount's memory,
    then two more such directories, to show the memory stays bounded."""
    with sides.mount() as mount:
        mount.start()
        before = mount.memory_kib()
        search = sides.mount_point / ACCOUNT / "search"
        first = ls(search / "*")
        after_one = mount.memory_kib()
        again = ls(search / "*")
        for other in ("NOT tag:unread OR tag:unread", "date:..2027"):
            ls(search / other)
        after_three = mount.memory_kib()
        root_listing = ls(sides.mount_point / "search" / "*")
        return {"first": first, "again": again, "root": root_listing, "before": before,
                "after_one": after_one, "after_three": after_three, "after_root": mount.memory_kib()}


def index_sizes(sides: Sides) -> dict:
    """Bytes of the FTS5 tables (pages of emailSearch's shadow tables in the index's own
    file, from `dbstat`), the copy of the indexed text among them, the whole store with its
    index, and notmuch's database."""
    database = sides.store / "mailfs-search.sqlite"
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        tables = dict(db.execute("SELECT name, SUM(pgsize) FROM dbstat WHERE name LIKE 'emailSearch%' GROUP BY name"))
    store = sum(path.stat().st_size for path in sides.store.glob("mailfs*.sqlite*"))
    notmuch = du(sides.notmuch_dir / "db")
    return {"fts": sum(tables.values()), "content": tables.get("emailSearch_content", 0), "store": store,
            "notmuch": notmuch}


def du(path: Path) -> int:
    output = subprocess.run(["du", "-s", "--block-size=1", str(path)], capture_output=True, text=True).stdout
    return int(output.split()[0]) if output.strip() else 0


def ms(seconds):
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def verdict(ok):
    return "**PASS**" if ok else "**MISS**"


def markdown(options, sides, compared, listing, whole, sizes, facts) -> str:
    lines = [
        "## Search",
        "",
        f"Written by `bench/search/run.py`: corpus {sides.summary}; imported into its own store "
        f"({sides.import_seconds} s) and indexed by `notmuch new` (notmuch "
        f"{machine.first_line(['notmuch', '--version']).split()[-1]}, "
        f"{sides.notmuch_seconds} s) over the same tree. 20 queries of each kind; "
        "mailfs: `ls ACCOUNT/search/QUERY` (an exec of `ls` included, as on notmuch's side), first time (the "
        "directory never listed in this mount: LOOKUP parses, READDIRPLUS runs the query) and again (the kernel's "
        "cached listing); notmuch: `notmuch search --output=files QUERY`. Page cache warm on both sides. mailfs's "
        "spelling differs only where a directory name cannot hold `/` (`mimetype:image.png`) and for folders "
        "(tree names). Results: how many entries each side printed (notmuch one line per file).",
        "",
        "| kind | mailfs first, median | mailfs again, median | notmuch, median | first / notmuch | results mailfs / notmuch (sum) |",
        "|---|---|---|---|---|---|",
    ]
    all_first, all_notmuch = [], []
    for kind, rows in compared.items():
        first = [row[2].seconds for row in rows]
        again = [row[3].seconds for row in rows]
        theirs = [row[1].seconds for row in rows]
        all_first += first
        all_notmuch += theirs
        lines.append(f"| {kind} | {ms(statistics.median(first))} | {ms(statistics.median(again))} | "
                     f"{ms(statistics.median(theirs))} | {statistics.median(first) / statistics.median(theirs):.2f}x | "
                     f"{sum(row[2].lines for row in rows):,} / {sum(row[1].lines for row in rows):,} |")
    first_median, notmuch_median = statistics.median(all_first), statistics.median(all_notmuch)
    lines.append(f"| **all {len(all_first)}** | **{ms(first_median)}** | | **{ms(notmuch_median)}** | "
                 f"**{first_median / notmuch_median:.2f}x** | |")
    times, counts = listing["times"], listing["counts"]
    list_ratio = times["search-first"] / times["folder-first"]
    growth_one = (whole["after_one"]["VmRSS"] - whole["before"]["VmRSS"]) / 1024
    growth_three = (whole["after_three"]["VmRSS"] - whole["before"]["VmRSS"]) / 1024
    lines += [
        "",
        f"| listing (median of {LIST_SAMPLES}, each in a fresh mount) | first time | again |",
        "|---|---|---|",
        f"| `ls` of the search `folder:Big` ({counts.get('search', 0):,} entries) | {ms(times['search-first'])} | "
        f"{ms(times['search-again'])} |",
        f"| `ls` of the folder `Big` ({counts.get('folder', 0):,} entries) | {ms(times['folder-first'])} | "
        f"{ms(times['folder-again'])} |",
        f"| ratio | {list_ratio:.2f}x | |",
        "",
        "| a search matching every message (`search/*`) | |",
        "|---|---|",
        f"| `ls` first time ({whole['first'].lines:,} entries) / again | {ms(whole['first'].seconds)} / "
        f"{ms(whole['again'].seconds)} |",
        f"| `ls` of the root's `search/*` (every account, names prefixed) | {ms(whole['root'].seconds)} |",
        f"| mount VmRSS before / after one / after three such directories / after the root's | "
        f"{whole['before']['VmRSS'] / 1024:.0f} / {whole['after_one']['VmRSS'] / 1024:.0f} / "
        f"{whole['after_three']['VmRSS'] / 1024:.0f} / {whole['after_root']['VmRSS'] / 1024:.0f} MiB |",
        f"| mount VmHWM at the end | {whole['after_root']['VmHWM'] / 1024:.0f} MiB |",
        "",
        "| index size | |",
        "|---|---|",
        f"| mailfs full-text index (FTS5 tables, `dbstat`) | {sizes['fts'] / MIB:.0f} MiB |",
        f"| of which the inverted index | {(sizes['fts'] - sizes['content']) / MIB:.0f} MiB |",
        f"| of which FTS5's copy of the indexed text (`emailSearch_content`) | {sizes['content'] / MIB:.0f} MiB |",
        f"| mailfs store in all (messages, bodies, index) | {sizes['store'] / MIB:.0f} MiB |",
        f"| notmuch database (`du` of its Xapian directory) | {sizes['notmuch'] / MIB:.0f} MiB |",
        "",
        "| goal (issue 12) | measured | verdict |",
        "|---|---|---|",
        f"| median first-time `ls` ≤ 1.0x notmuch | {first_median / notmuch_median:.2f}x | "
        f"{verdict(first_median <= GOAL_RATIO * notmuch_median)} |",
        f"| median first-time `ls` ≤ 50 ms | {ms(first_median)} | {verdict(first_median <= GOAL_FIRST)} |",
        f"| `ls` of 10,000 results ≤ 2x `ls` of a 10,000-message folder | first {list_ratio:.2f}x | "
        f"{verdict(list_ratio <= GOAL_LIST_RATIO)} |",
        f"| memory per open 50,000-result directory bounded | +{growth_one:.0f} MiB for one, +{growth_three:.0f} MiB "
        "for three | see the note |",
    ]
    lines += ["", "Notes:", ""] + [f"- {note}" for note in sides.notes]
    lines += ["", "Machine:", ""] + [f"- {label}: {value}" for label, value in facts]
    return "\n".join(lines) + "\n"


def main():
    options = parse_arguments()
    sides = Sides(options)
    facts = machine.facts(sides.work, options.binary)
    try:
        sides.prepare()
        with sides.mount() as mount:
            mount.start()
            compared = compare_queries(sides, mount)
        listing = big_listing(sides)
        whole = everything(sides)
        sizes = index_sizes(sides)
    finally:
        if not options.keep:
            sides.remove()
    sides.notes.append("The import and `notmuch new` times are context, not a comparison: each ran once, when the "
                       "store or database was first made (bench/run compares import with indexing).")
    sides.notes.append("Result counts differ only for phrases: mailfs stems the words of a phrase, notmuch "
                       "matches them as written (README, \"Where mailfs differs from notmuch\").")
    sides.notes.append("The first `ls` of a search directory runs its query and builds its listing in the mount "
                       "(first minus again: about 3.5 µs an entry for the 50,000-result one, about 3.2 µs for the "
                       "folder `Big`); again, the kernel serves the listing it kept. Past the first page, a listing "
                       "of more than 1,000 entries gives the kernel no inode for its files until a reader looks "
                       "one up (docs/DECISIONS.md, \"Readdirplus for directories, for files when asked\").")
    sides.notes.append("A search directory's listing is held like a folder's: in the mount's listing cache "
                       "(200,000 entries in all, dropped whole beyond that) and one READDIR snapshot per "
                       "directory being read (64 at most), so memory grows with the entries listed, up to those "
                       "bounds, not with the number of directories opened.")
    scaffold.write_section(markdown(options, sides, compared, listing, whole, sizes, facts), options.output)
    return 0


if __name__ == "__main__":
    scaffold.run_until_interrupted(main, "mount")
