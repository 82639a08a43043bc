"""Everyday conversations generated from the phrase banks, to give the
mailbox the bulk and variety of a real inbox around the scripted stories."""
import datetime as dt

from . import bank_ops, bank_team, dates
from .book import END, START
from .cast import YOU, person
from .threads import Conversation

TOPICS = {**bank_ops.TOPICS, **bank_team.TOPICS}
_CITIES = ("Lisbon", "Porto", "Copenhagen", "Valencia", "Edinburgh", "Gothenburg")
_NAMES = ("Marta", "Jonas", "Aisha", "Daniel", "Keiko", "Rafael", "Sofia", "Ben")
_AMOUNTS = ("£4,200", "£12,500", "€8,900", "£2,750", "€18,000", "£31,000", "£1,850")
_GAPS = (0.5, 1, 2, 3, 5, 20, 26, 48, 70)


def slots(rng, when):
    """Plausible values for the {slots} of one thread started at `when`."""
    soon = when + dt.timedelta(days=rng.randint(1, 4))
    later = when + dt.timedelta(days=rng.randint(5, 12))
    return dict(day=dates.DAY_LONG[soon.weekday()], date=dates.spoken_day(later),
                time=rng.choice(("09:30", "10:00", "11:00", "14:00", "15:30")), amount=rng.choice(_AMOUNTS),
                pct=f"{rng.randint(3, 19)}%", n=rng.randint(3, 40), person=rng.choice(_NAMES),
                city=rng.choice(_CITIES), ticket=f"OPS-{rng.randint(1000, 1999)}",
                month=dates.MONTH_LONG[(when.month - 2) % 12])


def replies_for(topic, index):
    """The replies of `topic` that fit the thread of subject `index`."""
    fitting = []
    for entry in topic["reply"]:
        tags, bar, text = entry.partition("|")
        if not bar:
            fitting.append(entry)
        elif str(index) in tags.split(","):
            fitting.append(text)
    return fitting


def _threads(rng):
    """Every (topic, subject index) of the banks, in a seeded order."""
    pairs = [(name, index) for name, topic in TOPICS.items() for index in range(len(topic["subjects"]))]
    rng.shuffle(pairs)
    return pairs


def _reply_text(rng, fitting, used, values):
    """One or two reply paragraphs nobody in this thread has said yet."""
    fresh = [p for p in fitting if p not in used]
    if rng.random() < 0.3 or not fresh:
        fresh = [p for p in bank_team.SHORT_REPLIES if p not in used]
        chosen = [rng.choice(fresh)]
    else:
        chosen = rng.sample(fresh, k=1 if rng.random() < 0.7 or len(fresh) < 2 else 2)
    used.update(chosen)
    return [p.format(**values) for p in chosen]


def _working_hours(moment, rng):
    """Hours to add so that a reply at `moment` (UTC) falls between 07:00 and 20:00."""
    if 7 <= moment.hour < 20:
        return 0
    morning = (moment + dt.timedelta(hours=12)).replace(hour=rng.randint(7, 9), minute=0, second=0)
    return (morning - moment).total_seconds() / 3600


def conversation(book, topic, index):
    """One generated thread in INBOX (the demo user's part in Sent); returns
    how many messages it added."""
    rng = book.rng
    cast = [person(k) for k in rng.sample(topic["people"], k=min(len(topic["people"]), rng.randint(1, 3)))]
    hours = int((END - START).total_seconds() // 3600) - 24 * 5
    start = (START + dt.timedelta(hours=rng.randint(0, hours))).replace(hour=rng.randint(7, 15))
    values = slots(rng, start)
    conv = Conversation(book, topic["subjects"][index].format(**values), "INBOX", start, style="sender")
    conv.post(cast[0], [topic["open"][index].format(**values)], to=[YOU], cc=cast[1:],
              html=_likes_html(rng, cast[0]), **_flags(rng, cast[0]))
    fitting, used = replies_for(topic, index), {topic["open"][index]}
    speakers = cast + [YOU]
    for _ in range(rng.choice((0, 1, 1, 2, 2, 3, 3, 4, 5, 7))):
        gap = rng.choice(_GAPS)
        gap += _working_hours(conv.clock + dt.timedelta(hours=gap), rng)
        if conv.clock + dt.timedelta(hours=gap + 1) > END:
            break
        sender = rng.choice([p for p in speakers if p is not conv.mails[-1].sender])
        conv.post(sender, _reply_text(rng, fitting, used, values), after=gap, html=_likes_html(rng, sender),
                  greet=rng.random() < 0.6, mobile=rng.random() < 0.1, **_flags(rng, sender))
    return len(conv.mails)


def _likes_html(rng, sender):
    return sender.id_style in ("apple", "outlook", "gmail") and rng.random() < 0.6


def _flags(rng, sender):
    """Occasional flagged or still-unread messages (never on the user's own mail)."""
    roll = rng.random()
    if sender is YOU:
        return {}
    return {"flagged": True} if roll < 0.04 else {"unread": True} if roll < 0.08 else {}


def everyday(book, count):
    """Generated threads until at least `count` messages were added."""
    added = 0
    for name, index in _threads(book.rng):
        if added >= count:
            break
        added += conversation(book, TOPICS[name], index)
    return added
