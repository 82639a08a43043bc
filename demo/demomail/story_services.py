"""Mail from machines: newsletters (Newsletters), build notifications and a
shop receipt (INBOX).

Covers: HTML-only messages, multipart/alternative newsletters, an inline
logo (multipart/related), List-Id/List-Unsubscribe headers, and
notifications whose References point at a root message that is not in the
mailbox (as GitHub-style issue mail does)."""
import datetime as dt
import html

from . import blobs, bodies, dates, mime
from .book import Mail
from .cast import YOU, person

_DIGEST_ITEMS = [
    ("SQLite adds a new JSON function", "A short tour of what changed and why it matters for mobile apps."),
    ("Writing a FUSE filesystem in an afternoon", "How far you get with the low-level API and a cup of tea."),
    ("The quiet success of Maildir", "Why a directory of files is still one of the best mail formats."),
    ("Threading email is harder than it looks", "References, In-Reply-To and the subject fallback, explained."),
    ("A faster grep for large trees", "Benchmarks across 50,000 files and what the numbers hide."),
    ("Release notes: Swift on Linux", "Better concurrency checking and smaller binaries."),
    ("Postgres 17 in production", "Three teams describe their upgrades, including one rollback."),
    ("The budget for open source maintenance", "What companies actually spend, from a survey of 400 firms."),
    ("Mutt turns thirty", "A look back at the mail client that sucks less."),
    ("Designing for dark mode", "Contrast ratios, shadows and images that survive both themes."),
    ("Date parsing bugs we have known", "Two-digit years, missing time zones and '+0000 (GMT)'."),
    ("Unicode file names in the wild", "NFC, NFD and the filesystems that disagree."),
]


def _single(book, sender, folder, when, subject, body, style="q", headers=(), **flags):
    mail = Mail(folder=folder, when=when, sender=sender, to=[YOU], cc=[], subject=subject,
                subject_style=style, message_id=book.message_id(sender, when), body=body,
                extra_headers=list(headers), **flags)
    return book.add(mail)


def _list_headers(sender, list_id):
    return [("List-Id", f"<{list_id}>"),
            ("List-Unsubscribe", f"<https://{sender.domain}/unsubscribe?u=demo>, <mailto:unsubscribe@{sender.domain}>"),
            ("Precedence", "bulk")]


def _page(title, blocks, colour):
    body = "".join(f"<tr><td style=\"padding: 12px 24px;\"><h2 style=\"margin: 0 0 6px;\">{html.escape(h)}</h2>\n"
                   f"<p style=\"margin: 0;\">{html.escape(p)}</p></td></tr>\n" for h, p in blocks)
    return ('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f"<title>{html.escape(title)}</title>\n</head>\n"
            '<body style="margin: 0; background: #f4f4f0; font-family: Georgia, serif;">\n'
            '<table role="presentation" width="600" align="center" style="background: #ffffff;">\n'
            f'<tr><td style="padding: 24px; background: {colour}; color: #ffffff;">'
            f"<h1 style=\"margin: 0;\">{html.escape(title)}</h1></td></tr>\n{body}"
            '<tr><td style="padding: 24px; font-size: 12px; color: #777777;">You receive this because '
            'you subscribed. <a href="https://example.com/unsubscribe">Unsubscribe</a>.</td></tr>\n'
            "</table>\n</body>\n</html>\n")


def digest(book):
    """Weekly Open Source Digest: plain text and HTML alternatives."""
    sender = person("digest")
    for week in range(12):
        when = dates.utc(2026, 9, 4, 6, 30) + dt.timedelta(days=7 * week)
        items = [_DIGEST_ITEMS[(week * 5 + k) % len(_DIGEST_ITEMS)] for k in range(4)]
        plain = f"Open Source Digest, issue {112 + week}\n\n" + "".join(
            f"* {title}\n  {blurb}\n  https://osdigest.example/{112 + week}/{k + 1}\n\n"
            for k, (title, blurb) in enumerate(items)) + "Unsubscribe: https://osdigest.example/unsubscribe\n"
        rich = mime.text(_page(f"Open Source Digest #{112 + week}", items, "#2b5d3a"), "html")
        body = mime.multipart("alternative", [mime.text(plain, encoding="7bit"), rich], book.boundary())
        _single(book, sender, "Newsletters", when, f"Open Source Digest #{112 + week}: {items[0][0]}", body,
                headers=_list_headers(sender, "digest.osdigest.example"), unread=week >= 9)


def dispatch(book):
    """The Quarterly Dispatch: monthly, HTML only."""
    sender = person("dispatch")
    issues = [
        (dates.utc(2026, 9, 10, 13, 0), "Surviving budget season",
         [("Surviving budget season", "Five habits of teams whose budgets survive contact with reality."),
          ("The quarterly plan nobody reads", "How to write a plan that people open twice.")]),
        (dates.utc(2026, 10, 8, 13, 0), "Meetings, measured",
         [("Meetings, measured", "We timed 1,200 meetings. Here is what the short ones have in common."),
          ("Reader question", "How do I say no to a project without saying no to the person?")]),
        (dates.utc(2026, 11, 12, 13, 0), "The year-end review, reviewed",
         [("The year-end review, reviewed", "Why the best reviews look forward, not back."),
          ("Budget planning for 2027", "A template for the quarterly budget conversation.")]),
    ]
    for when, title, blocks in issues:
        body = bodies.html_only(book, _page(f"The Quarterly Dispatch — {title}", blocks, "#7a3b2e"))
        _single(book, sender, "Newsletters", when, f"The Quarterly Dispatch: {title}", body,
                headers=_list_headers(sender, "dispatch.example"))


def nordlys(book):
    """Danish travel offers: HTML only, UTF-8 Q subjects."""
    sender = person("nordlys")
    offers = [(dates.utc(2026, 9, 15, 7, 0), "Efterårstilbud: 3 nætter i Ærøskøbing fra 1.299 kr."),
              (dates.utc(2026, 10, 13, 7, 0), "Weekend i Skagen – spar 20 % på hotellet"),
              (dates.utc(2026, 11, 10, 7, 0), "Julemarked i Aarhus: få pladser tilbage")]
    for when, subject in offers:
        page = _page(subject, [("Book nu", "Priserne gælder ved booking inden for 7 dage. Begrænset antal "
                                            "værelser. Afbestilling gratis op til 48 timer før ankomst.")],
                     "#1d4f73")
        _single(book, sender, "Newsletters", when, subject, bodies.html_only(book, page),
                headers=_list_headers(sender, "tilbud.nordlys-rejser.example"))


def cafe(book):
    """Café Crème: HTML with the logo as an inline image, French subjects in UTF-8 B."""
    sender = person("cafe")
    badge = blobs.logo(48, (120, 72, 40))
    for when, subject, text in [
            (dates.utc(2026, 9, 24, 9, 0), "Nouveautés d'automne au Café Crème ☕",
             "Le chocolat chaud revient, et la tarte aux poires aussi. À bientôt !"),
            (dates.utc(2026, 11, 5, 9, 0), "Soirée dégustation : jeudi 19 novembre",
             "Trois cafés d'Éthiopie, trois méthodes. Places limitées, réservation au comptoir.")]:
        page = (f'<!DOCTYPE html>\n<html lang="fr">\n<body>\n<p><img src="cid:logo@cafe-creme.example" '
                f'alt="Café Crème" width="48" height="48"></p>\n<h1>{html.escape(subject)}</h1>\n'
                f"<p>{html.escape(text)}</p>\n</body>\n</html>\n")
        related = mime.multipart("related", [mime.text(page, "html"), mime.attachment(
            badge, "image/png", "logo.png", inline=True, content_id="logo@cafe-creme.example")],
            book.boundary(), '; type="text/html"')
        _single(book, sender, "Newsletters", when, subject, related, style="b",
                headers=_list_headers(sender, "news.cafe-creme.example"))


def ci(book):
    """Build notifications: failed and fixed runs, and comments on one issue
    whose root notification is not in the mailbox."""
    bot = person("ci")
    runs = [(dates.utc(2026, 9, 9, 10, 12), "failed", "a41c9e0"), (dates.utc(2026, 9, 9, 11, 3), "fixed", "b7d2f11"),
            (dates.utc(2026, 10, 1, 16, 40), "failed", "c03e5aa"), (dates.utc(2026, 10, 1, 17, 25), "fixed", "d99a104"),
            (dates.utc(2026, 11, 18, 8, 5), "failed", "e5f0c2b")]
    for when, outcome, commit in runs:
        verb = "Run failed" if outcome == "failed" else "Run fixed"
        plain = (f"{verb}: CI - main ({commit})\n\nWorkflow: CI\nBranch: main\nCommit: {commit}\n"
                 f"Duration: {7 + len(commit)} min\n\nView the run: https://builds.northwind.example/atlas/{commit}\n")
        _single(book, bot, "INBOX", when, f"[northwind/atlas] {verb}: CI - main ({commit})",
                bodies.body(book, bot, plain, html=True), headers=[("Auto-Submitted", "auto-generated")])
    root = "<northwind/atlas/issues/1290@builds.northwind.example>"
    comments = [("priya", "I can reproduce it about one run in twenty. It looks like a race between the IDLE "
                          "loop and the folder sync."),
                ("ingrid", "Seen again on main tonight, in the same test."),
                ("priya", "Fixed by serialising the two tasks. Closing this issue.")]
    for number, (who, text) in enumerate(comments):
        when = dates.utc(2026, 10, 20, 9, 0) + dt.timedelta(hours=30 * number)
        plain = (f"{person(who).name} commented:\n\n{text}\n\n"
                 "-- \nReply to this email or view it online.\n")
        mail = _single(book, bot, "INBOX", when, "Re: [northwind/atlas] Flaky test in SyncEngineTests (Issue #1290)",
                       bodies.body(book, bot, plain), headers=[("Auto-Submitted", "auto-generated")])
        mail.in_reply_to, mail.references = root, [root]


def receipt(book):
    shop = person("shop")
    page = _page("Your order has shipped", [("Order PW-20931", "2 × Recycled A5 notebook, 1 × Fountain pen "
                                                               "ink, blue. Total £23.40, paid by card."),
                                             ("Delivery", "Royal Mail tracked, expected Thursday.")], "#333366")
    _single(book, shop, "INBOX", dates.utc(2026, 11, 9, 12, 10), "Your Paperwise order PW-20931 has shipped",
            bodies.html_only(book, page))


def build(book):
    digest(book)
    dispatch(book)
    nordlys(book)
    cafe(book)
    ci(book)
    receipt(book)
