"""How the sections write their figures: medians of samples, durations, ratios, Markdown tables."""
import statistics


def median(samples, key):
    """The median of KEY over the samples (dicts) that have it, or None."""
    values = [sample[key] for sample in samples or [] if sample.get(key) is not None]
    return statistics.median(values) if values else None


def seconds(value, small_digits=2):
    """A duration in ms below 1 s (with SMALL_DIGITS decimals below 10 ms), in s above."""
    if value is None:
        return "n/a"
    if value < 0.01:
        return f"{value * 1000:.{small_digits}f} ms"
    return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.2f} s"


def ratio(mine, theirs):
    return "n/a" if mine is None or not theirs else f"{mine / theirs:.2f}x"


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)
