"""Phrase bank, part 2: people topics (hiring, customers, design, social,
training, roadmap) and short replies that fit any conversation. The layout
is that of bank_ops."""

TOPICS = {
    "hiring": {
        "people": ["grace", "priya", "wei"],
        "subjects": ["Interview panel for the backend role", "Candidate feedback: {person}",
                     "Offer approved", "Job description review"],
        "open": [
            "We have three candidates for the backend role in the final round. Could you join the "
            "panel on {date}? The system design interview is 60 minutes, starting at {time}.",
            "Please send your feedback on {person} by end of day {day}. A short paragraph on "
            "strengths and concerns is enough; the scorecard is in the hiring tool.",
            "The offer for the product designer role has been approved. I will call the candidate "
            "tomorrow, so please keep it to yourselves until they have accepted.",
            "I rewrote the job description for the QA role. It is shorter and says more about what "
            "the work is actually like. Comments welcome before it goes live on {day}.",
        ],
        "reply": [
            "1|Strong on fundamentals, clear communicator. My only concern is limited experience "
            "with on-call, which we can coach.",
            "0|I can do the panel, but I would need to leave at 15:30 for another commitment.",
            "2|Great news. I will prepare the onboarding plan so their first week is not all "
            "laptop setup.",
            "3|The new description reads much better. I would drop the list of twelve tools; nobody "
            "knows all of them on day one.",
        ],
    },
    "customer": {
        "people": ["jose", "mateus", "wei", "alice"],
        "subjects": ["Escalation: sync delays for Acme Iberia", "Renewal call with {person}",
                     "Feature request: export to CSV", "Customer visit on {day}"],
        "open": [
            "Acme Iberia report that changes take up to ten minutes to appear for some of their "
            "users. It started after the update on {day}, and they are understandably impatient.",
            "I have a renewal call with {person} on {date}. They are happy with the product but "
            "will push on price; I would like to offer a two-year term rather than a discount.",
            "Several customers have asked for an export to CSV from the reports page. It keeps "
            "coming up in calls, so I am putting it on the list for the planning session.",
            "The team from Madrid is visiting on {day}. The plan is a demo in the morning, lunch, "
            "and an hour with engineering on their integration questions.",
        ],
        "reply": [
            "0|We found it: a queue consumer was stuck on one shard. It is restarted and the backlog "
            "has cleared. I will send the customer a short explanation.",
            "1|A two-year term makes sense. I can approve up to {pct} off the second year if it "
            "closes this month.",
            "2|CSV export is small if we start from the existing report queries. Maybe three days of "
            "work including tests.",
            "3|I can join the integration hour. Please send me their questions in advance so I can "
            "bring the right people.",
        ],
    },
    "design": {
        "people": ["zoe", "liam", "wei"],
        "subjects": ["Website redesign: first concepts", "New icons for the settings page",
                     "Colour palette feedback", "Illustrations for the blog"],
        "open": [
            "Here are the first concepts for the website. Direction A keeps the current structure "
            "with a calmer palette; direction B leads with customer stories. I lean towards B.",
            "The settings page icons are finished. They follow the 24-pixel grid and have a "
            "two-pixel stroke so they stay readable on low-density screens.",
            "I tested the new palette for contrast. Two of the accent colours fail the AA ratio on "
            "white, so I darkened them slightly; the difference is hard to see but it passes now.",
            "For the blog I would suggest a small set of reusable illustrations rather than one per "
            "post. It keeps the look consistent and the cost predictable.",
        ],
        "reply": [
            "0|B for me as well. The customer quotes feel more honest than the feature grid.",
            "1|Lovely work. Could we see the icons at 16 pixels too? The sidebar uses the small size.",
            "2|Thank you for checking contrast. Please put the final values in the shared style "
            "sheet so engineering can pick them up.",
            "3|Reusable illustrations sound right. How many would you need for the first batch?",
        ],
    },
    "social": {
        "people": ["emma", "liam", "grace", "ingrid", "alice"],
        "subjects": ["Lunch on {day}?", "Leaving drinks for {person}", "Book club: next pick",
                     "Pub quiz team", "Running club on Thursday"],
        "open": [
            "A few of us are going to the new Lebanese place on {day}. Table for six at 12:30; "
            "shout if you want to join.",
            "{person}'s last day is {date}. Drinks at the Wharf from 17:30, and there is a card at "
            "reception if you would like to sign it.",
            "We finished the last book, finally. Suggestions for the next one? Something shorter, "
            "please; several people gave up halfway through the last one.",
            "The quiz is on Thursday at 19:00 and we are one short. Expertise in geography or "
            "nineties music particularly welcome.",
            "The running club starts again on Thursday: 5 km along the canal at 18:00, all paces "
            "welcome. We finish at the café, which is the real reason most of us come.",
        ],
        "reply": [
            "0,1,3,4|Count me in!",
            "0,1,3|I will be there, slightly late. Save me a seat by the window.",
            "2|How about a short story collection? Nobody can give up on a book they can finish in "
            "a train ride.",
            "3|I am terrible at geography but I know every word of every nineties hit. Sign me up.",
            "0,1,3,4|Sadly I am away that day. Have a great time!",
            "4|I will come, but at the slow end of 'all paces'.",
        ],
    },
    "training": {
        "people": ["grace", "ingrid", "priya"],
        "subjects": ["Conference tickets: early-bird ends soon", "Workshop: writing good bug reports",
                     "Learning budget reminder"],
        "open": [
            "Early-bird tickets for the conference in {city} end on {date}. We can send up to "
            "three people; let me know if you would like to go and which talks interest you.",
            "I am running a one-hour workshop on writing bug reports on {day} at {time}. It is "
            "mostly examples: what helped us fix things quickly, and what sent us in circles.",
            "A reminder that everyone has a learning budget of {amount} per year, and most of it is "
            "unused. Books, courses and conference tickets all count.",
        ],
        "reply": [
            "0|I would love to go. The talks on observability and on accessibility testing look the "
            "most useful for us.",
            "1|Signed up. Could you record it for the people in other time zones?",
            "2|Does the allowance cover language courses? I would like to improve my Spanish for "
            "the Madrid customers.",
        ],
    },
    "roadmap": {
        "people": ["wei", "priya", "alice"],
        "subjects": ["2027 roadmap: first pass", "Planning session on {day}", "What we learned from Q3"],
        "open": [
            "Here is a first pass at the 2027 roadmap. It is deliberately short: three themes, each "
            "with the problem we want to solve rather than a list of features.",
            "The planning session is on {day} from {time}. Please bring one problem you think we "
            "should solve next year and one thing we should stop doing.",
            "Looking back at Q3: we shipped less than planned but the things we shipped are used. "
            "Offline mode in particular is the most praised change of the year.",
        ],
        "reply": [
            "0|The themes are right. I would make reliability explicit instead of hiding it under "
            "'quality'; it is what customers ask about most.",
            "1|One thing to stop: the weekly status report that nobody reads. The dashboard says "
            "the same thing.",
            "0|Good summary. The second theme looks ambitious; we would need at least one more "
            "engineer to do it properly.",
            "2|Agreed on offline mode. The feedback from the beta says the same.",
        ],
    },
}

SHORT_REPLIES = [
    "Thanks, that works for me.",
    "Sounds good. I will update the document.",
    "Could we push this to {day}? I am out until then.",
    "Agreed. Let us go with that.",
    "I have added a couple of comments in the document; nothing that blocks.",
    "Thanks for pulling this together so quickly.",
    "Good point. I had not thought about that.",
    "Let me check with {person} and come back to you by {day}.",
    "Perfect, thank you!",
    "Noted, thanks for the heads-up.",
]
