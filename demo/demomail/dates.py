"""Calendar arithmetic that never looks at the machine's clock, zone or locale.

Every date in the demo mailbox is derived from fixed UTC instants; local times
come from a small table of zones with their 2026 daylight-saving rules, and
day and month names are spelled here rather than by strftime (which follows
the locale).
"""
import datetime as dt

UTC = dt.timezone.utc
DAY_NAMES = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTH_NAMES = ("Jan", "Feb", "Mar", "Apr", "May", "Jun",
               "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
MONTH_LONG = ("January", "February", "March", "April", "May", "June", "July",
              "August", "September", "October", "November", "December")
DAY_LONG = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
            "Saturday", "Sunday")

# Daylight-saving periods of 2026 as UTC instants [start, end).
_DST_2026 = {
    "eu": (dt.datetime(2026, 3, 29, 1, tzinfo=UTC), dt.datetime(2026, 10, 25, 1, tzinfo=UTC)),
    "us": (dt.datetime(2026, 3, 8, 7, tzinfo=UTC), dt.datetime(2026, 11, 1, 6, tzinfo=UTC)),
}

# zone name -> (standard offset in minutes, DST rule or None)
ZONES = {
    "Europe/London": (0, "eu"),
    "Europe/Dublin": (0, "eu"),
    "Europe/Lisbon": (0, "eu"),
    "Europe/Paris": (60, "eu"),
    "Europe/Berlin": (60, "eu"),
    "Europe/Madrid": (60, "eu"),
    "Europe/Copenhagen": (60, "eu"),
    "Europe/Stockholm": (60, "eu"),
    "Europe/Moscow": (180, None),
    "Asia/Kolkata": (330, None),
    "Asia/Tokyo": (540, None),
    "America/New_York": (-300, "us"),
    "America/Los_Angeles": (-480, "us"),
    "America/Sao_Paulo": (-180, None),
    "UTC": (0, None),
}


def utc(year, month, day, hour=0, minute=0, second=0):
    """A fixed UTC instant."""
    return dt.datetime(year, month, day, hour, minute, second, tzinfo=UTC)


def offset_minutes(zone, instant):
    """Offset of `zone` from UTC at `instant`, in minutes."""
    standard, rule = ZONES[zone]
    if rule is not None:
        start, end = _DST_2026[rule]
        if start <= instant < end:
            return standard + 60
    return standard


def local(instant, zone):
    """`instant` as a naive local date-time in `zone`, and the offset used."""
    offset = offset_minutes(zone, instant)
    return (instant + dt.timedelta(minutes=offset)).replace(tzinfo=None), offset


def rfc5322(instant, zone):
    """Date header value, e.g. 'Tue, 01 Sep 2026 09:14:00 +0200'."""
    moment, offset = local(instant, zone)
    sign = "+" if offset >= 0 else "-"
    hours, minutes = divmod(abs(offset), 60)
    return (f"{DAY_NAMES[moment.weekday()]}, {moment.day:02d} {MONTH_NAMES[moment.month - 1]} "
            f"{moment.year} {moment:%H:%M:%S} {sign}{hours:02d}{minutes:02d}")


def asctime(instant):
    """The UTC date of an mbox 'From ' line, e.g. 'Tue Sep  1 07:14:00 2026'."""
    return (f"{DAY_NAMES[instant.weekday()]} {MONTH_NAMES[instant.month - 1]} "
            f"{instant.day:2d} {instant:%H:%M:%S} {instant.year}")


def attribution(instant, zone):
    """How a mail client introduces a quote, e.g. 'Tue, 1 Sep 2026 at 09:14'."""
    moment, _ = local(instant, zone)
    return (f"{DAY_NAMES[moment.weekday()]}, {moment.day} {MONTH_NAMES[moment.month - 1]} "
            f"{moment.year} at {moment:%H:%M}")


def spoken_day(instant, zone="UTC"):
    """A date as people write it in prose, e.g. 'Thursday 8 October'."""
    moment, _ = local(instant, zone)
    return f"{DAY_LONG[moment.weekday()]} {moment.day} {MONTH_LONG[moment.month - 1]}"
