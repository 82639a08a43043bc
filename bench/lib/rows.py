"""One line of the results table and how its numbers are written."""
from dataclasses import dataclass


@dataclass
class Row:
    """A metric measured on both sides; None where a side has no such number."""
    key: str            # stable id the goals refer to, e.g. "ls-l/warm"
    metric: str         # what a reader sees, e.g. "ls -l Big (10,000 msgs)"
    state: str          # "cold", "warm, median of 5", ...
    mailfs: float | None
    maildir: float | None
    unit: str           # "s" or "MiB"

    @property
    def ratio(self) -> float | None:
        """mailfs / Maildir: above 1 means mailfs is slower (or bigger)."""
        if self.mailfs is None or not self.maildir:
            return None
        return self.mailfs / self.maildir


def show(value: float | None, unit: str) -> str:
    if value is None:
        return "n/a"
    if unit == "s":
        if value < 0.001:
            return f"{value * 1e6:.0f} µs"
        return f"{value * 1000:.1f} ms" if value < 1 else f"{value:.2f} s"
    return f"{value:.1f} {unit}"


def show_ratio(ratio: float | None) -> str:
    return "n/a" if ratio is None else f"{ratio:.2f}x"


def table(rows: list[Row]) -> list[list[str]]:
    """Header plus one list of cells per row: metric | state | mailfs | Maildir | ratio."""
    cells = [["metric", "cache", "mailfs", "Maildir", "ratio"]]
    for row in rows:
        cells.append([row.metric, row.state, show(row.mailfs, row.unit), show(row.maildir, row.unit),
                      show_ratio(row.ratio)])
    return cells


def plain_text(rows: list[Row]) -> str:
    cells = table(rows)
    widths = [max(len(line[column]) for line in cells) for column in range(len(cells[0]))]
    lines = []
    for index, line in enumerate(cells):
        lines.append(" | ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip())
        if index == 0:
            lines.append("-+-".join("-" * width for width in widths))
    return "\n".join(lines)


def markdown(rows: list[Row]) -> str:
    cells = table(rows)
    lines = ["| " + " | ".join(cells[0]) + " |", "|" + "---|" * len(cells[0])]
    lines += ["| " + " | ".join(line) + " |" for line in cells[1:]]
    return "\n".join(lines)
