"""Drafts and Trash.

Drafts carry X-Status: T; one is an unfinished reply in a thread whose other
messages sit in INBOX and Sent, one has an attachment. Trash holds spam, an
out-of-office reply, a deleted build notification and an old lunch order."""
from . import blobs, bodies, dates, mime
from .book import Mail
from .cast import YOU, person
from .threads import Conversation


def drafts(book, report_thread):
    report_thread.post(YOU, ["Thanks again for the report. One question on the hosting line before I "
                             "forward it to Tom:"], after=30.0, reply_to=0, folder="Drafts", draft=True,
                       sign=False)
    tom, emma, soren = person("tom"), person("emma"), person("soren")
    notes = Conversation(book, "Notes for the budget presentation", "Drafts", dates.utc(2026, 9, 23, 19, 10))
    notes.post(YOU, [
        "Points for Thursday:\n\n"
        "  - we are £30.4k over plan, almost all of it the migration\n"
        "  - hosting savings from October (reserved instances)\n"
        "  - contingency line of £10k for the licence true-up\n"
        "  - ask: accept the overrun, no cuts to the launch budget"],
        to=[tom], greet=False, sign=False, draft=True, folder="Drafts",
        attachments=[mime.attachment(blobs.csv([("Line item", "Over plan"), ("Contractors", 31500),
                                                ("Cloud hosting", 8900), ("Travel", 3600)]),
                                     "text/csv", "talking-points.csv")])
    Conversation(book, "Christmas plans", "Drafts", dates.utc(2026, 11, 19, 21, 30)).post(
        YOU, ["Are you around between Christmas and New Year? We were thinking of"], to=[emma], folder="Drafts",
        sign=False, draft=True)
    Conversation(book, "Spørgsmål om eksporten", "Drafts", dates.utc(2026, 11, 20, 8, 0), style="b").post(
        YOU, ["Quick question about the 2025 export: does it include the deleted records?"], to=[soren],
        draft=True, folder="Drafts")


def _single(book, sender, when, subject, body, style="q", headers=()):
    book.add(Mail(folder="Trash", when=when, sender=sender, to=[YOU], cc=[], subject=subject,
                  subject_style=style, message_id=book.message_id(sender, when), body=body,
                  extra_headers=list(headers)))


def trash(book):
    prize = person("prize")
    page = ('<html><body style="background:#ffff00"><h1>CONGRATULATIONS!!!</h1>\n<p>Your e-mail address '
            'has won <b>€1.000.000</b>. To claim your prize send your bank details within 24 hours.</p>\n'
            '<p><a href="http://prize-claims.invalid/claim">CLAIM NOW</a></p></body></html>\n')
    _single(book, prize, dates.utc(2026, 10, 3, 3, 17), "You have won €1.000.000!!! Claim now",
            bodies.html_only(book, page), headers=[("X-Spam-Flag", "YES")])
    hannah = person("hannah")
    away = ("Vielen Dank für Ihre Nachricht. Ich bin bis einschließlich 23. Oktober nicht im Büro.\n\n"
            "Thank you for your message. I am out of the office until 23 October inclusive.\n")
    _single(book, hannah, dates.utc(2026, 10, 19, 9, 2), "Abwesenheitsnotiz: Präsentation Q4 für das Budget-Meeting",
            bodies.body(book, hannah, away), style="latin1", headers=[("Auto-Submitted", "auto-replied")])
    bot = person("ci")
    plain = "Run failed: CI - release (0c1d2e3)\n\nWorkflow: CI\nBranch: release/3.0\n"
    _single(book, bot, dates.utc(2026, 11, 2, 22, 40), "[northwind/atlas] Run failed: CI - release (0c1d2e3)",
            bodies.body(book, bot, plain), headers=[("Auto-Submitted", "auto-generated")])
    grace = person("grace")
    lunch = "Hi all,\n\nSandwich order for Friday's workshop: reply with your choice by Thursday noon.\n\nGrace\n"
    _single(book, grace, dates.utc(2026, 9, 17, 10, 0), "Sandwich order for Friday", bodies.body(book, grace, lunch))


def build(book, report_thread):
    drafts(book, report_thread)
    trash(book)
