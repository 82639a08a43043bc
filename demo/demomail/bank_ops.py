"""Phrase bank, part 1: operations topics (offsite, infrastructure, security,
office, vendors, reporting).

In each topic `open[i]` starts a thread with `subjects[i]`. A reply may be
tagged "i,j|text" to fit only the threads of those subjects; untagged
replies fit any thread of the topic. Slots in braces are filled by prose.slots().
"""

TOPICS = {
    "offsite": {
        "people": ["alice", "grace", "liam", "priya", "tom"],
        "subjects": ["Team offsite in {city}", "Offsite agenda draft", "Offsite: rooms and flights",
                     "Dietary requirements for the offsite"],
        "open": [
            "We are planning the autumn offsite for the week of {date}. {city} is the front runner: "
            "flights are reasonable from London and Madrid, and the venue has a room for twenty with "
            "decent daylight, which was the main complaint last time.",
            "The draft agenda is in the shared folder. Day one is the retrospective and the 2027 "
            "roadmap; day two is for the teams to work on whatever they think matters most.",
            "I have pencilled in two days of workshops and one free afternoon. The travel budget is "
            "{amount} for the whole group, so we need to book flights in the next two weeks before "
            "prices climb. Let me know by {day} if you need a room for the night before.",
            "For the dinner on the first evening, please tell me about any dietary requirements or "
            "allergies by {day}. The venue can cater for anything if they know a week ahead.",
        ],
        "reply": [
            "0,2|I can make it. I would need a room on the night before, as the first flight from "
            "{city} lands too late for a 9:00 start.",
            "0,1|Works for me. One request: can we keep the free afternoon free this time? Last year "
            "it turned into three extra meetings.",
            "I checked the venue's accessibility page and it looks fine, but I will call them to "
            "confirm the step-free entrance.",
            "0,2|Flights booked. The fares went up by about {pct} since Monday, so I would nudge "
            "everyone else to book soon.",
            "1|Happy with the agenda. Could we swap the roadmap session and the retro so we look back "
            "before we look forward?",
            "0,1|I will not be able to join on day two, unfortunately; I am on call that week. I will "
            "dial in for the morning session.",
            "3|Vegetarian for me, thank you. And no mushrooms, if the kitchen can manage it.",
            "3|No requirements here, I eat everything.",
        ],
    },
    "infra": {
        "people": ["priya", "ingrid", "noah", "soren"],
        "subjects": ["Database migration window", "Incident {ticket}: elevated error rates",
                     "Disk usage on the build servers", "Postgres 17 upgrade plan", "TLS certificate renewal"],
        "open": [
            "We would like to run the database migration on {date}, starting at {time} UTC. The "
            "rehearsal on staging took 47 minutes end to end, so I am asking for a two-hour window "
            "to leave room for the rollback.",
            "Between 02:10 and 02:55 UTC the API returned 5xx for roughly {pct} of requests. The "
            "cause was a connection pool that did not recover after a failover of the primary. "
            "Ticket {ticket} has the timeline.",
            "The build servers are at 91% disk. Most of it is old artefacts that the clean-up job "
            "skipped because of a permissions change in August. I will fix the job, but we should "
            "also decide how long we keep release builds.",
            "The plan: freeze schema changes from {day}, take a full backup, upgrade the replica "
            "first, fail over, then upgrade the old primary. Customers should notice nothing beyond "
            "a few seconds of read-only mode.",
            "The wildcard certificate expires in {n} days. Renewal is automated, but the load "
            "balancers still need a manual reload, which is why it bit us last year.",
        ],
        "reply": [
            "1|Thanks for the write-up. Do we have an alert on pool exhaustion now, or only on the "
            "error rate? I would like to catch this before customers do.",
            "0,3|The window works for me. I will be online from {time} and can handle customer comms "
            "if we overrun.",
            "2|Agreed on retention: keep every release build for a year and nightly builds for 30 "
            "days. That should free up about {n} GB.",
            "0,3|I ran the upgrade script against a copy of production last night. Two extensions "
            "needed a newer version; the details are in {ticket}.",
            "1|Postmortem draft is up. Please add anything I missed before {day}; I want to share it "
            "with the wider team on Friday.",
            "0,3,4|Could we do this on a Tuesday instead of a Friday? If something goes wrong I would "
            "rather not debug it over the weekend.",
            "4|I have added the reload to the renewal runbook and set a reminder a week before expiry.",
            "2|The clean-up job is fixed and ran last night; disk usage is down to 64%.",
        ],
    },
    "security": {
        "people": ["fatima", "priya", "grace"],
        "subjects": ["Phishing exercise results", "Laptop updates due by {day}", "Access review for Q4",
                     "Reminder: rotate your API tokens"],
        "open": [
            "Last week's phishing exercise went out to everyone. {pct} clicked the link and a "
            "handful entered credentials, which is better than spring but still more than we "
            "would like.",
            "Please install the pending operating system updates by {day}. After that the device "
            "management tool will restart laptops overnight, so save your work.",
            "It is time for the quarterly access review. You will receive a list of the systems "
            "your team can reach; please confirm or remove each entry by {date}.",
            "If you still use a personal API token created before July, please rotate it. The old "
            "tokens stop working on {date}.",
        ],
        "reply": [
            "2|Done for my team. Two people had admin access to the billing system they no longer "
            "need; I have removed it.",
            "1|Is there a way to postpone the forced restart for the build machines? They run long "
            "jobs overnight.",
            "0|Thanks. Would it help if we ran a short session on spotting phishing at the next "
            "all-hands? I am happy to present.",
            "3|Rotated. The documentation still points to the old settings page, by the way.",
        ],
    },
    "office": {
        "people": ["facilities", "grace", "alice"],
        "subjects": ["Desk moves on the third floor", "Heating in the east wing", "New coffee machine",
                     "Office closed on {day}"],
        "open": [
            "We are moving the product and engineering teams to the third floor on {date}. Please "
            "pack personal items in the crates provided; IT will move screens and docks.",
            "We know the east wing has been cold since the weekend. The engineer comes on {day} "
            "morning; until then there are spare heaters in the store room.",
            "The new coffee machine arrives on {day}. It grinds beans, which means it is louder; "
            "we have put it in the kitchen rather than next to the quiet room.",
            "The office will be closed on {day} for electrical testing. Please work from home; the "
            "building will be without power from 07:00 to 18:00.",
        ],
        "reply": [
            "0|Will the lockers move too, or should we empty them?",
            "1|Thanks for the heads-up. Could someone check the meeting room on the corner as well? "
            "It was 16 degrees this morning.",
            "2|Any chance we keep the old machine as a backup? It made a decent flat white.",
            "3|Noted. I will move my meeting that day to a video call.",
        ],
    },
    "vendor": {
        "people": ["mateus", "noah", "fatima", "tom"],
        "subjects": ["Quote for the support contract", "Renewal terms for 2027", "Purchase order {ticket}",
                     "Hardware order: laptops for new starters"],
        "open": [
            "Please find our quote for the 2027 support contract below. The price is {amount} per "
            "year, unchanged from this year, with the response time for critical issues reduced from "
            "four hours to two.",
            "Before we sign, I would like to understand the renewal terms. The current contract "
            "renews automatically with a {pct} price increase; I would prefer a fixed price for "
            "two years.",
            "The purchase order for the new licences is {ticket}. It needs one more approval before "
            "the vendor can invoice, and we are close to the end of the financial period.",
            "We need {n} laptops for the people starting in November. The usual model is back in "
            "stock; delivery would take eight working days from the order.",
        ],
        "reply": [
            "0,1|Thanks. The price is fine, but I would like the service credits spelled out in the "
            "contract rather than in the email.",
            "0,1|Legal has no objection to the liability clause as long as the cap is at least the "
            "annual fee.",
            "2,3|Approved from my side. Please use the cost centre for operations, not engineering.",
            "0|Could you send the quote as a PDF on your letterhead? Our finance system will not take "
            "an email as a document.",
            "1|We can offer a two-year fixed price if the contract is signed before {date}.",
            "3|Please order them now; two of the new starters begin on the 2nd.",
        ],
    },
    "reporting": {
        "people": ["tom", "olga", "alice", "wei"],
        "subjects": ["Monthly numbers for {month}", "KPI dashboard is broken", "Quarterly report: first draft",
                     "Headcount forecast"],
        "open": [
            "The monthly numbers for {month} are in. Revenue is {pct} above plan, mostly thanks to "
            "two large renewals, while costs are in line with the budget apart from hosting.",
            "The KPI dashboard has shown zero sign-ups since {day}. The numbers in the database look "
            "right, so I suspect the export job rather than the product.",
            "Attached is the first draft of the quarterly report. The narrative needs work, but the "
            "figures are final unless someone spots an error by {day}.",
            "For the planning round I need the headcount forecast for each team by {date}: current "
            "people, open roles and anything you expect to open in the first half of next year.",
        ],
        "reply": [
            "0|Thanks. Hosting is higher because of the load tests in week 40; it should drop back "
            "next month.",
            "1|The export job failed after the password rotation. I have updated the credentials and "
            "re-run it for the missing days.",
            "2|One correction: the churn figure on page 3 uses the old definition. With the new one "
            "it is 2.1% rather than 2.6%.",
            "3|Our forecast: two open roles now, one more in March if the partnership goes ahead.",
            "0,2|Looks good. Can we add a short paragraph on the quarterly trend in support tickets? "
            "The board asked about it last time.",
        ],
    },
}
