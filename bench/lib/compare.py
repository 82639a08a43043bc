"""Running one operation on both sides, cold and warm, and turning the times into rows."""
from dataclasses import dataclass, field
from pathlib import Path

import timing
from rows import Row

# A command faster than this cold gets SHORT_RUNS_FACTOR times the warm runs (`Setup.warm_runs`).
SHORT = 0.2
SHORT_RUNS_FACTOR = 4


@dataclass
class Setup:
    """Everything a measurement needs to know about this run."""
    binary: Path
    corpus: Path            # the Maildir++ tree: the Maildir side
    copy: Path              # where `cp -a` puts its copy (removed after the import step)
    store: Path             # mailfs --data-dir
    mount_point: Path
    account: str
    env: dict               # environment of mailfs (empty XDG config, C locale)
    runs: int               # warm repetitions
    samples: int            # messages for the cat percentiles
    seed: int
    word: str
    cold: bool              # True when the page cache can be dropped
    notmuch: bool
    notes: list = field(default_factory=list)
    traces: list = field(default_factory=list)   # fuse_requests.Trace of the traced runs

    @property
    def account_root(self) -> Path:
        return self.mount_point / self.account

    @property
    def cold_label(self) -> str:
        return "cold" if self.cold else "first run (not cold: cannot drop caches)"

    @property
    def warm_label(self) -> str:
        return self.warm_label_of(self.runs)

    @staticmethod
    def warm_label_of(runs: int) -> str:
        return f"warm, median of {runs}"

    def warm_runs(self, cold_seconds: float) -> int:
        """More warm runs for a command that takes under SHORT seconds cold: a 10 ms `ls`
        moved by 2 ms from one median of five to the next, most of it exec and the machine."""
        return self.runs * SHORT_RUNS_FACTOR if cold_seconds < SHORT else self.runs

    def drop_caches(self):
        if self.cold:
            timing.drop_caches()


@dataclass
class Outcome:
    rows: list
    mailfs_lines: int
    maildir_lines: int


def side_by_side(setup: Setup, key: str, metric: str, mailfs_argv: list, maildir_argv: list,
                 allowed_exit=(0,)) -> Outcome:
    """Times both commands once after dropping the caches, then `runs` times warm, alternating."""
    setup.drop_caches()
    cold_mailfs = timing.run(mailfs_argv, allowed_exit=allowed_exit)
    setup.drop_caches()
    cold_maildir = timing.run(maildir_argv, allowed_exit=allowed_exit)
    warm_mailfs, warm_maildir = [], []
    runs = setup.warm_runs(max(cold_mailfs.seconds, cold_maildir.seconds))
    for _ in range(runs):
        warm_mailfs.append(timing.run(mailfs_argv, allowed_exit=allowed_exit))
        warm_maildir.append(timing.run(maildir_argv, allowed_exit=allowed_exit))
    rows = [
        Row(f"{key}/cold", metric, setup.cold_label, cold_mailfs.seconds, cold_maildir.seconds, "s"),
        Row(f"{key}/warm", metric, setup.warm_label_of(runs), timing.median([r.seconds for r in warm_mailfs]),
            timing.median([r.seconds for r in warm_maildir]), "s"),
    ]
    return Outcome(rows, warm_mailfs[-1].lines, warm_maildir[-1].lines)
