"""Projects/Launch: the Atlas 3.0 launch.

Covers: a 12-message checklist thread with an inline screenshot
(multipart/related); a calendar invitation (text/calendar + .ics) and the
user's acceptance; a vendor thread with an RFC 2231 file name and HTML mail;
a CSV attachment."""
from . import blobs, dates, mime
from .cast import YOU, person
from .threads import Conversation

FOLDER = "Projects/Launch"
LAUNCH_TEAM = ("wei", "priya", "ingrid", "liam")


def checklist(book):
    wei, priya, ingrid, liam = (person(k) for k in LAUNCH_TEAM)
    conv = Conversation(book, "Launch checklist for Atlas 3.0", FOLDER, dates.utc(2026, 10, 19, 16, 0))
    conv.post(wei, [
        "Here is the checklist for the launch. Please put your name next to anything you own and "
        "tell me if something is missing.",
        "  [ ] release candidate cut and signed          (Priya)\n"
        "  [ ] regression pass on the release candidate  (Ingrid)\n"
        "  [ ] status page and support macros updated    (Alex)\n"
        "  [ ] blog post, newsletter, social             (Liam)\n"
        "  [ ] press kit printed                         (Liam)\n"
        "  [ ] go/no-go meeting                          (Wei)",
        "The date is still 5 November; we will confirm it at the go/no-go."],
        to=[YOU, priya, ingrid, liam])
    conv.post(priya, ["Release candidate is cut: 3.0.0-rc1. Build notes are on the release page."],
              after=18.0)
    conv.post(ingrid, [
        "Regression pass started on rc1. Two issues so far: the search filter forgets the date "
        "range after a refresh, and the export dialog is cut off at 125% zoom. Neither blocks, "
        "in my opinion."], after=20.0)
    conv.post(YOU, [
        "Status page draft is ready and the support macros are updated. I have also asked support "
        "to staff an extra person on launch day."], after=3.0)
    shot = blobs.gradient(200, 120, (236, 240, 245), (200, 210, 225), stripe=(40, 56))
    conv.post(wei, [
        "Thanks all. Here is how the new onboarding screen looks on rc1; the layout is final, the "
        "illustration is a placeholder until Zoë's arrives."], after=5.0, html=True,
        images=[("onboarding-rc1@northwind.example", "onboarding-rc1.png", shot)])
    conv.post(liam, [
        "Blog post and newsletter are drafted. The paid campaign is ready to go once we confirm "
        "the date; the launch budget for ads is £9k, most of it in the first week."], after=22.0)
    conv.post(ingrid, ["Both issues are fixed in rc2. The regression pass on rc2 is clean."], after=44.0)
    conv.post(priya, [
        "rc2 is signed and on the staging servers. Unless something comes up, rc2 is what we "
        "ship."], after=2.5)
    conv.post(liam, [
        "Press kit update: François needs the final artwork by Friday to print in time for the "
        "launch. Zoë says she can deliver Thursday."], after=20.0)
    conv.post(YOU, [
        "Since the date moved to 12 November (see Wei's mail), I have updated the status page "
        "draft and told support."], after=60.0)
    conv.post(wei, [
        "Updated checklist:\n\n"
        "  [x] release candidate cut and signed          (Priya)\n"
        "  [x] regression pass on the release candidate  (Ingrid)\n"
        "  [x] status page and support macros updated    (Alex)\n"
        "  [x] blog post, newsletter, social             (Liam)\n"
        "  [ ] press kit printed                         (Liam)\n"
        "  [ ] go/no-go meeting                          (Wei)"], after=24.0, flagged=True)
    conv.post(liam, ["The press kits arrived from the printer this morning. That is everything from me."],
              after=280.0)


def date_moved(book):
    wei, priya, liam = person("wei"), person("priya"), person("liam")
    conv = Conversation(book, "Launch date moved to 12 November", FOLDER, dates.utc(2026, 10, 27, 17, 30))
    conv.post(wei, [
        "We are moving the launch from 5 to 12 November. The partner integration needs another "
        "week of testing on their side, and launching without it would mean a second announcement "
        "two weeks later.",
        "Nothing else changes: same release candidate, same plan."], to=[YOU, priya, liam])
    conv.post(YOU, ["Understood. Does the extra week change anything for the budget of the paid "
                    "campaign, Liam?"], after=1.2)
    conv.post(liam, ["No, the campaign simply starts a week later. The bookings moved without a fee."],
                     after=0.8)
    conv.post(priya, ["Good for engineering: one more week of soak time on rc2 does no harm."], after=9.0,
              reply_to=0)
    conv.post(wei, ["Thanks all. I have moved the go/no-go to Tuesday 10 November."], after=3.0)


def _calendar(data, method):
    """A text/calendar part carrying an iCalendar object (its CRLFs become the
    message's line ends)."""
    return mime.Part([("Content-Type", f"text/calendar; charset=utf-8; method={method}"),
                      ("Content-Transfer-Encoding", "7bit")], data.replace(b"\r\n", b"\n"))


def invitation(book):
    """A calendar invitation as Google-like clients send it, and the acceptance."""
    wei = person("wei")
    start, end = dates.utc(2026, 11, 10, 15, 0), dates.utc(2026, 11, 10, 16, 0)
    sent = dates.utc(2026, 10, 28, 18, 2)
    attendees = [(p.name.replace(",", ""), p.address) for p in (YOU, person("priya"), person("liam"))]
    invite = blobs.ics("atlas-3-go-no-go@northwind.example", "Launch go/no-go", start, end,
                       ("Wei Chen", wei.address), attendees, "Thames room / video call", sent)
    subject = "Invitation: Launch go/no-go @ Tue 10 Nov 2026 15:00 - 16:00 (GMT)"
    conv = Conversation(book, subject, FOLDER, sent)
    lines = ("You have been invited to the following event.\n\nLaunch go/no-go\n"
             "When: Tuesday 10 November 2026, 15:00 - 16:00 (GMT)\nWhere: Thames room / video call")
    calendar = _calendar(invite, "REQUEST")
    html_part = mime.text("<p>You have been invited to <b>Launch go/no-go</b>.</p>\n"
                          "<p>Tuesday 10 November 2026, 15:00 - 16:00 (GMT)<br>\nThames room / video call</p>\n",
                          "html")
    alternative = mime.multipart("alternative", [mime.text(lines + "\n", encoding="7bit"), html_part, calendar],
                                 book.boundary())
    mail = conv.post(wei, [lines], to=[YOU, person("priya"), person("liam")], greet=False, sign=False)
    mail.body = mime.multipart("mixed", [alternative, mime.attachment(invite, "application/ics", "invite.ics")],
                               book.boundary())
    reply = blobs.ics("atlas-3-go-no-go@northwind.example", "Launch go/no-go", start, end,
                      ("Wei Chen", wei.address), attendees[:1], "Thames room / video call",
                      dates.utc(2026, 10, 28, 19, 40), method="REPLY").replace(b"RSVP=TRUE", b"PARTSTAT=ACCEPTED")
    accepted = conv.post(YOU, ["Alex Morgan has accepted this invitation."], to=[wei], greet=False, sign=False,
                         after=1.5, subject="Accepted: Launch go/no-go @ Tue 10 Nov 2026 15:00 - 16:00 (GMT)")
    note = mime.text("Alex Morgan has accepted this invitation.\n", encoding="7bit")
    accepted.body = mime.multipart("alternative", [note, _calendar(reply, "REPLY")], book.boundary())


def press_kit(book):
    zoe, francois, liam = person("zoe"), person("francois"), person("liam")
    conv = Conversation(book, "Press kit for Atlas 3.0", FOLDER, dates.utc(2026, 10, 29, 10, 15), style="sender")
    cover = blobs.gradient(160, 100, (250, 214, 165), (214, 96, 77))
    back = blobs.gradient(160, 100, (190, 220, 240), (40, 80, 140), stripe=(70, 80))
    conv.post(zoe, [
        "Voilà — the artwork for the press kit: cover and back of the brochure. The colours are "
        "in CMYK in the print files; these previews are screen versions.",
        "François, the print files are too big for email, I will send a download link."],
        to=[liam, francois], cc=[YOU], html=True,
        attachments=[mime.attachment(cover, "image/png", "brochure-cover.png"),
                     mime.attachment(back, "image/png", "brochure-back.png")])
    proof = blobs.pdf("Epreuve brochure Atlas 3.0", ["Imprimerie Dubois & Fils", "Format A5, 12 pages",
                                                      "Tirage: 500 exemplaires", "Papier: couche mat 170 g"])
    conv.post(francois, [
        "Merci Zoë. Please find attached the proof (épreuve) for your approval. With approval by "
        "Wednesday we deliver on 10 November.",
        "For 500 copies the price is €3,650, as in the quote Liam approved."],
        after=26.0, attachments=[mime.attachment(proof, "application/pdf", "Épreuve brochure.pdf")])
    conv.post(liam, ["The proof looks great. Approved from marketing."], after=3.0)
    conv.post(YOU, ["Approved from my side as well. Thank you both!"], after=0.6, html=True)
    conv.post(francois, ["Parfait, it goes to print tomorrow morning."], after=2.0)


def beta_feedback(book):
    ingrid, wei = person("ingrid"), person("wei")
    conv = Conversation(book, "Beta feedback round-up", FOLDER, dates.utc(2026, 10, 12, 7, 50))
    rows = [("id", "customer", "area", "severity", "summary"),
            (1, "Acme Iberia", "sync", "high", "Changes take minutes to appear"),
            (2, "Sabiá Software", "export", "low", "Export dialog cut off at 125% zoom"),
            (3, "Ærø Data", "search", "medium", "Date range forgotten after refresh"),
            (4, "Kontor Beratung", "i18n", "low", "Umlauts in folder names shown as \"?\"")]
    conv.post(ingrid, [
        "The beta closed on Friday. 41 customers took part; the attached sheet has the issues "
        "they reported, with my severity rating.",
        "The one that matters is the sync delay for Acme Iberia; the rest are small."], to=[YOU, wei],
        attachments=[mime.attachment(blobs.csv(rows), "text/csv", "beta-feedback.csv")])
    conv.post(wei, ["Thanks Ingrid. Can we get the sync delay into rc2?"], after=2.0)
    conv.post(ingrid, ["Yes, Priya has a fix under review."], after=1.0)
    conv.post(YOU, ["Great work on the beta. I will let Acme Iberia know a fix is coming."], after=4.0)


def build(book):
    checklist(book)
    date_moved(book)
    invitation(book)
    press_kit(book)
    beta_feedback(book)
