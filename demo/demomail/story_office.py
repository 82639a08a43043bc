"""INBOX conversations at the office and with friends.

Covers: a forwarded message as message/rfc822 (with its own PDF); a
quoted-printable text attachment; a subject-only thread; a mutt user who
quotes with '>' and no space (so mbox escapes '>From ' as '>>From '); an
Apple Mail friend writing HTML."""
from . import blobs, bodies, dates, mime
from .book import Mail
from .cast import YOU, person
from .threads import Conversation


def _vendor_quote(book):
    """The message Alice forwards, as its own RFC 5322 bytes."""
    mateus, alice = person("mateus"), person("alice")
    when = dates.utc(2026, 10, 5, 14, 12)
    quote = blobs.pdf("Renewal quote 2027", ["Sabia Software - support renewal for Northwind Ltd",
                                              "Period: 1 January - 31 December 2027",
                                              "Annual fee: GBP 18,000 (unchanged)",
                                              "Critical response time: 2 hours (was 4)"])
    text = ("Hi Alice,\n\nAs promised, the renewal quote for 2027 is attached. The price is unchanged and "
            "the\nresponse time for critical issues drops from four hours to two.\n\nThe offer is valid "
            "until 30 November.\n\nBest regards,\nMateus\n\n-- \n" + mateus.signature + "\n")
    original = Mail(folder="INBOX", when=when, sender=mateus, to=[alice], cc=[],
                    subject="Renewal of your Sabiá support contract", subject_style="q",
                    message_id=book.message_id(mateus, when), plain=text,
                    body=bodies.body(book, mateus, text, attachments=[
                        mime.attachment(quote, "application/pdf", "Renewal quote 2027.pdf")]))
    return book.render(original, stored=False)


def forwarded_contract(book):
    alice, fatima = person("alice"), person("fatima")
    conv = Conversation(book, "Fwd: Renewal of your Sabiá support contract", "INBOX",
                        dates.utc(2026, 10, 6, 8, 45), style="q")
    conv.post(alice, [
        "Forwarding Sabiá's renewal quote, see the attached message. The price is unchanged and the "
        "response time is better, so I am inclined to accept.",
        "Could you check it against what we actually used this year? If we barely opened tickets, "
        "we might negotiate a lower tier instead."],
        attachments=[mime.rfc822(_vendor_quote(book), "Renewal of your Sabiá support contract.eml")])
    conv.post(YOU, [
        "We opened 14 tickets this year, two of them critical, so the current tier is right. "
        "Fatima, could you look at the contract terms before Alice signs?"], after=4.0, cc=[fatima])
    conv.post(fatima, ["The terms are the same as last year apart from the response time. No "
                       "objection from legal."], after=22.0)
    conv.post(alice, ["Thanks both, I will sign it this week."], after=1.0, flagged=True)


def people_notes(book):
    grace = person("grace")
    conv = Conversation(book, "Notes from the People team sync", "INBOX", dates.utc(2026, 10, 14, 15, 30))
    notes = ("People team sync — 14 October 2026\n"
             "Present: Grace, Alex, Zoë (guest, for the onboarding illustrations)\n\n"
             "1. Onboarding: new starters get a buddy for their first month. Zoë is drawing the welcome "
             "pack; the café voucher (€15) stays.\n"
             "2. Learning budget: only 31% used so far. Reminder to all teams in November.\n"
             "From next year the learning budget can also cover language courses.\n"
             "3. Office: the quiet room is booked solid; we will trial a booking limit of two hours.\n\n"
             "Actions: Grace — reminder mail; Alex — ask finance about the learning budget carry-over.\n")
    conv.post(grace, [
        "Notes from today's sync are attached. The one action for you is the question to finance "
        "about carrying over unused learning budget into next year.",
        "Thanks for making the time!"],
        attachments=[mime.attachment(notes.encode("utf-8"), "text/plain; charset=utf-8",
                                     "meeting-notes.txt", encoding="quoted-printable")])
    conv.post(YOU, ["Thanks Grace. Tom says unused learning budget cannot be carried over, but teams "
                    "can prepay courses that start in January."], after=28.0)


def parking(book):
    """Held together only by the subject: the facilities desk's tool sets no
    In-Reply-To or References."""
    facilities, liam = person("facilities"), person("liam")
    conv = Conversation(book, "Parking garage closed this weekend", "INBOX", dates.utc(2026, 11, 12, 11, 0),
                        subject_only=True)
    conv.post(facilities, [
        "The parking garage will be closed from Saturday 14 November 07:00 until Sunday 15 November "
        "20:00 for resurfacing. Cars left inside will be moved to the street at the owner's cost.",
        "The bicycle racks at the front entrance are not affected."], to=[YOU, liam], html=True)
    conv.post(liam, ["Does this include the bike cage at the back? I usually leave my bike there over "
                     "the weekend."], after=2.0, to=[facilities], cc=[YOU])
    conv.post(facilities, ["Yes, the bike cage is inside the garage, so please use the front racks "
                           "this weekend."], after=1.5, to=[liam], cc=[YOU], html=True)


def team_photo(book):
    """Another subject-only thread, with the user's reply in Sent: the replies
    come from the company's intranet form, which sets no threading headers."""
    grace, ingrid = person("grace"), person("ingrid")
    conv = Conversation(book, "Team photo on Thursday", "INBOX", dates.utc(2026, 10, 26, 9, 10), subject_only=True)
    conv.post(grace, ["The photographer is booked for Thursday at 11:00 on the roof terrace, weather "
                      "permitting. It takes ten minutes; please be there on time."], to=[YOU, ingrid])
    conv.post(YOU, ["I have a customer call until 11:15. Could I join the second group?"], after=1.0,
              to=[grace])
    conv.post(grace, ["Yes, no problem: second group at 11:20."], after=0.5, to=[YOU])
    conv.post(ingrid, ["If it rains, where do we go instead?"], after=3.0, to=[grace], cc=[YOU])


def dinner(book):
    emma = person("emma")
    conv = Conversation(book, "Dinner on Saturday?", "INBOX", dates.utc(2026, 11, 16, 18, 20))
    conv.post(emma, ["We are finally free this weekend! Dinner at ours on Saturday? Around 7. Bring "
                     "nothing but yourselves (and maybe that lemon tart)."], html=True)
    conv.post(YOU, ["We would love to! Lemon tart it is. Anything we should avoid? I remember Sam "
                    "is off dairy at the moment."], after=2.5)
    conv.post(emma, ["Yes, dairy-free please, but the tart with coconut cream was perfect last time."],
              after=0.8, html=True, mobile=True)
    conv.post(emma, ["PS: bring a jumper, we are eating in the conservatory 🌿"], after=40.0, reply_to=-1,
              html=True, greet=False, subject_style="b")


def migration_plan(book):
    noah = person("noah")
    conv = Conversation(book, "Data migration plan", "INBOX", dates.utc(2026, 9, 8, 14, 0))
    conv.post(noah, [
        "Here is the plan for the data migration, as discussed:\n\n"
        "  1. copy the historical tables to the new cluster (read-only, two nights)\n"
        "  2. dual-write for one week and compare\n"
        "  3. switch reads, then stop the old writers\n"
        "  4. keep the old cluster for 30 days, then drop it",
        "The risky step is 2: any difference in how the two clusters round timestamps shows up "
        "there. I will write a comparison job first."])
    conv.post(YOU, [
        "Thanks Noah, this is clear.",
        "From the finance side, we have contractor hours for this until the end of September, so "
        "steps 1-3 should fit and step 4 can run into October. How long do you expect the "
        "comparison job to take?"], after=5.0)
    conv.post(noah, ["About two days to write, and it runs nightly afterwards."], after=3.0)
    conv.post(YOU, ["Perfect, go ahead."], after=1.0, greet=False)
    conv.post(noah, [
        "Steps 1 and 2 are done. The comparison found 312 rows with a one-second difference in "
        "timestamps; fixed in the writer, re-run is clean. Switching reads tomorrow."],
        after=134.0, reply_to=1)


def search_regression(book):
    ingrid, priya = person("ingrid"), person("priya")
    conv = Conversation(book, "Regression in the search filter", "INBOX", dates.utc(2026, 10, 21, 9, 30))
    conv.post(ingrid, [
        "Steps to reproduce on rc1: open search, pick 'last 30 days', refresh the page. The filter "
        "shows 'any date' but the results are still limited to 30 days.",
        "Expected: the filter keeps 'last 30 days' after a refresh."], to=[priya], cc=[YOU])
    conv.post(priya, ["Found it: the filter state is read before the saved settings load. Fix in review."],
              after=3.0)
    conv.post(ingrid, ["Verified on rc2, thanks."], after=47.0, greet=False)


def build(book):
    forwarded_contract(book)
    people_notes(book)
    parking(book)
    team_photo(book)
    dinner(book)
    migration_plan(book)
    search_regression(book)
