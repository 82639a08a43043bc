"""Projects/Budget: the Q4 budget review and its side threads.

Covers: a 10-message thread across Projects/Budget and Sent with CSV, PNG
and PDF attachments; a bottom-posting colleague; an ISO-8859-1 Q subject
with an RFC 2231 file name ('Präsentation Q4.pdf') and an RFC 2231 name
split into continuations; a subject-only thread."""
from . import blobs, dates, mime
from .cast import YOU, person
from .threads import Conversation

FOLDER = "Projects/Budget"
ROWS = [("Line item", "Q3 actual", "Q4 plan", "Q4 draft", "Variance"),
        ("Salaries", 412000, 418000, 418000, 0), ("Contractors", 64000, 40000, 71500, 31500),
        ("Cloud hosting", 38200, 36000, 44900, 8900), ("Travel", 9100, 12000, 15600, 3600),
        ("Software licences", 14300, 15000, 14800, -200), ("Marketing, events", 22000, 30000, 26500, -3500),
        ("Office", 18000, 18000, 17800, -200)]


def _sheet(name, rows):
    return mime.attachment(blobs.csv(rows), "text/csv", name)


def q4_review(book):
    tom, alice, priya = person("tom"), person("alice"), person("priya")
    conv = Conversation(book, "Q4 budget review", FOLDER, dates.utc(2026, 9, 14, 8, 5))
    conv.post(tom, [
        "Please find attached the first draft of the Q4 budget. Headline: we are about £38k over "
        "the plan we agreed in June, almost all of it in three lines.",
        "Contractors (+£31.5k) because the data migration overran; cloud hosting (+£8.9k) after the "
        "load tests; travel (+£3.6k) which is mostly the offsite.",
        "I would like to close the review by Friday 25 September so the numbers can go to the "
        "leadership meeting. Could you both look at your lines before Thursday?"],
        to=[YOU], cc=[alice], attachments=[_sheet("budget-q4-draft.csv", ROWS)])
    conv.post(YOU, [
        "Thanks Tom. The contractor overrun is real and I do not think we can claw it back, but "
        "the migration finishes in October, so Q4 should be the last quarter with that cost.",
        "On cloud hosting: the load tests are over. Priya's team is moving the staging "
        "environment to smaller instances, which should bring us close to the plan. I have copied "
        "her in."], after=3.2, cc=[alice, priya])
    conv.post(alice, [
        "Travel is the offsite, yes. We could move it to January and take it out of Q4 altogether, "
        "but I would rather not: people have booked, and the team needs it after this quarter.",
        "I can find £2k in the events line instead: we are skipping the October trade fair."],
        after=2.5)
    rows = [r if r[0] != "Marketing, events" else (r[0], 22000, 30000, 24500, -5500) for r in ROWS]
    chart = blobs.bar_chart([0.93, 0.16, 0.10, 0.035, 0.033, 0.055, 0.04])
    conv.post(tom, [
        "Revised sheet attached with Alice's change to the events line. We are now £36k over.",
        "The chart shows Q4 draft by line; contractors and hosting stand out, as expected."],
        after=20.0, attachments=[_sheet("budget-q4-v2.csv", rows),
                                 mime.attachment(chart, "image/png", "q4-by-line.png")])
    conv.post(YOU, [
        "Looks right to me. Could we add a contingency line of £10k? Last year we needed one in "
        "December for the licence true-up, and I would rather plan for it than explain it later."],
        after=4.0)
    conv.post(priya, [
        "Staging moves to the smaller instances this week. With reserved instances for the "
        "production database we save about £2.9k a month from October, so roughly £8.7k over the "
        "quarter, which covers the hosting overrun.",
        "The catch: reservations are for a year, so the saving is a commitment in next year's "
        "budget as well. I think that is fine, we are not going to shrink the database."],
        after=26.0)
    summary = blobs.pdf("Q4 budget summary", [
        "Northwind Ltd - Q4 2026 budget, version 3 (24 September 2026)",
        "", "Plan: GBP 569,000     Draft: GBP 599,400     Over plan: GBP 30,400",
        "Contingency line added: GBP 10,000 (licence true-up)",
        "Cloud hosting: reserved instances from October, saving GBP 8,700",
        "Contractors: data migration ends in October", "", "Prepared by Tom Hughes, Finance"])
    conv.post(tom, [
        "Version 3 attached as a PDF for the leadership pack, with the contingency line and "
        "Priya's hosting savings. We are now £30.4k over plan, and I can live with that given the "
        "migration ends in October."],
        after=6.5, attachments=[mime.attachment(summary, "application/pdf", "Q4 budget summary.pdf")])
    conv.post(alice, ["Approved from operations. Thank you all for turning this round so fast."],
              after=2.0, flagged=True)
    conv.post(YOU, [
        "Thanks everyone. I will present the summary at Thursday's leadership meeting and come back "
        "with any questions."], after=1.5)
    conv.post(tom, [
        "The numbers are locked in the finance system. Any change after today goes through a "
        "budget change request, I am afraid."], after=40.0, reply_to=-2)


def marketing_lines(book):
    liam, tom = person("liam"), person("tom")
    conv = Conversation(book, "Marketing budget: Q4 line items", FOLDER, dates.utc(2026, 10, 2, 9, 40))
    conv.post(liam, [
        "Here is how I would split the Q4 marketing budget of £24.5k:\n\n"
        "  - paid search            £9,000\n  - launch video           £6,500\n"
        "  - press kit and print    £4,000\n  - webinars               £2,000\n"
        "  - contingency            £3,000",
        "The launch video is the one I would defend hardest. Our last one still brings in "
        "sign-ups two years later."], to=[YOU], cc=[tom])
    conv.post(YOU, [
        "This looks sensible. Is £4k enough for print? François quoted us more than that last "
        "spring for the brochures alone."], after=1.8)
    conv.post(liam, [
        "Fair point. I will ask him for a quote on a smaller run; if it comes in above £4k we take "
        "the difference from the contingency."], after=2.2)
    conv.post(tom, [
        "Fine by finance as long as the total stays at £24.5k. Please tag invoices with budget "
        "code MKT-Q4 so I can match them."], after=5.0)
    conv.post(liam, ["Will do, thanks Tom."], after=0.7, greet=False)


def presentation(book):
    """Hannah's German presentation: Latin-1 subject, RFC 2231 file names."""
    hannah = person("hannah")
    conv = Conversation(book, "Präsentation Q4 für das Budget-Meeting", FOLDER,
                        dates.utc(2026, 10, 8, 13, 20), style="latin1")
    deck = blobs.pdf("Praesentation Q4", ["Kontor Beratung fuer Northwind", "",
                                          "1. Budget Q4: Stand und Abweichungen",
                                          "2. Einsparpotenziale", "3. Naechste Schritte"])
    name = "Präsentation Q4.pdf"
    conv.post(hannah, [
        "Hallo Alex,",
        "anbei wie besprochen die Präsentation für das Budget-Meeting am Donnerstag. Die Folien "
        "5 bis 7 sind noch auf Deutsch; ich übersetze sie bis Mittwoch.",
        "In short, for Tom: the deck walks through the Q4 budget, the savings we found in hosting "
        "and licences, and the next steps. Slides 5-7 will be in English by Wednesday."], greet=False,
        attachments=[mime.attachment(deck, "application/pdf", name,
                                     name_param='name="=?UTF-8?Q?Pr=C3=A4sentation_Q4.pdf?="',
                                     disposition_params=mime.param("filename", name))])
    conv.post(YOU, [
        "Vielen Dank, Hannah! The structure works well. Could slide 3 show the budget against the "
        "June plan rather than against Q3? That is the comparison leadership will ask about."],
        after=2.4, greet=False)
    receipt = "Überweisungsbeleg Budgetfreigabe Oktober 2026 – Kontor Beratung.pdf"
    conv.post(hannah, [
        "Hallo Alex,",
        "Gute Idee, ist geändert. Ich habe auch den Überweisungsbeleg für die Budgetfreigabe "
        "angehängt, damit Tom ihn ablegen kann.",
        "Slide 3 now compares against the June plan."], after=22.0, greet=False,
        attachments=[mime.attachment(blobs.pdf("Ueberweisungsbeleg", ["Betrag: EUR 4.800,00"]),
                                     "application/pdf", receipt,
                                     name_param=mime.param_continued("name", receipt, 3),
                                     disposition_params=mime.param_continued("filename", receipt, 3))])


def invoice(book):
    noah, tom = person("noah"), person("tom")
    conv = Conversation(book, "Invoice 2026-117 for the migration work", FOLDER, dates.utc(2026, 10, 16, 15, 0))
    bill = blobs.pdf("Invoice 2026-117", ["Becker Consulting LLC", "To: Northwind Ltd",
                                          "Data migration, September 2026: 62 hours x USD 140",
                                          "Total: USD 8,680.00", "Payment terms: 30 days"])
    conv.post(noah, [
        "Attached is invoice 2026-117 for the migration work in September: 62 hours, as tracked "
        "in the shared timesheet.",
        "From October the remaining work is the clean-up of the old tables, which I estimate at "
        "another 20 hours."], to=[YOU],
        attachments=[mime.attachment(bill, "application/pdf", "invoice-2026-117.pdf")])
    conv.post(YOU, ["Thanks Noah. Tom, this one goes against the contractors line of the Q4 budget."],
              after=1.0, to=[tom], cc=[noah])
    conv.post(tom, [
        "Booked, thanks. Noah, could you add our PO number (PO-88412) to future invoices? Our "
        "system rejects invoices without one."], after=3.0)
    conv.post(noah, [
        "Will do. From what I understand the PO covers the October hours too, so I will reference "
        "it on the next one."], after=4.5)


def freeze(book):
    """A thread that only its subject holds together."""
    alice, priya, wei = person("alice"), person("priya"), person("wei")
    conv = Conversation(book, "Budget freeze for November", FOLDER, dates.utc(2026, 11, 2, 8, 30),
                        subject_only=True)
    team = [YOU, priya, wei, person("liam"), person("grace")]
    conv.post(alice, [
        "From today until the end of November, please do not commit to any new spending that is "
        "not already in the Q4 budget. Renewals and things already approved are fine.",
        "If something cannot wait, send it to me and Tom with the amount and why."], to=team)
    conv.post(priya, ["Does this include the conference tickets we discussed in September? They "
                      "were approved but not yet bought."], after=3.0, to=[alice], cc=[YOU])
    conv.post(wei, ["Same question for the user research incentives: approved, not yet paid out."],
              after=5.0, to=[alice], cc=[YOU])


def build(book):
    q4_review(book)
    marketing_lines(book)
    presentation(book)
    invoice(book)
    freeze(book)
