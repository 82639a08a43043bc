"""The bench's queries: 20 of each kind, over the vocabulary of bench/generate_corpus.py,
written once for notmuch and turned into mailfs's spelling (a directory name cannot hold
"/", and folders have tree names)."""

WORDS = ("quarterly invoice deploy kubernetes lunch birthday passport interview roadmap indemnity "
         "firmware regression onboarding cashflow itinerary museum prototype compliance bisect reconciliation").split()
PHRASES = ["call with acme", "travel plans", "approval needed", "failing on main", "for the offsite",
           "this weekend", "next week", "on friday", "who is in for", "feedback on the", "thoughts on the",
           "question about the", "updated agreement", "for signature", "plan for the", "incident",
           "the team", "please check", "thanks for", "sounds good"]
FIRST_NAMES = ("alice bob carol david emma farid grace hiro ines jonas karin liam maria noah olga priya rafael "
               "sara tomas uma").split()
LAST_NAMES = ("smith jones garcia müller rossi novak kim chen tanaka silva petrov dubois larsen kowalski haddad "
              "okafor nguyen ivanova fernández schäfer").split()
SUBJECT_WORDS = ("budget invoice release migration patch driver renewal contract flight hotel interview offer "
                 "roadmap prototype agreement clause lunch party coffee concert").split()
DATES = ["date:2026-01", "date:2026-02", "date:2026-03", "date:2026-04", "date:2026-05", "date:2026-06",
         "date:2026-07", "date:2026-08", "date:2026-09", "date:2026-10", "date:2025-03..2025-04",
         "date:..2025-01-15", "date:2026-11-01..", "date:2025", "date:2025-06-01..2025-06-07", "date:2w..",
         "date:1M..", "date:3M..", "date:6M..", "date:2026-10-15..2026-10-31"]
TAGS = ["tag:unread", "tag:flagged", "tag:attachment", "tag:unread quarterly", "tag:flagged deploy",
        "tag:attachment invoice", "tag:unread tag:flagged", "tag:flagged from:alice", "tag:unread lunch",
        "tag:attachment from:maria", "is:unread kubernetes", "is:flagged roadmap", "tag:unread date:2026-10",
        "tag:attachment date:2026", "tag:flagged budget", "tag:unread subject:patch", "tag:attachment travel",
        "tag:flagged tag:attachment", "tag:unread birthday", "tag:flagged interview"]
ATTACHMENTS = ["attachment:pdf", "attachment:report", "attachment:photo", "attachment:chart",
               "attachment:archive.zip", "attachment:figures", "attachment:xlsx", "attachment:jpg",
               "mimetype:application/pdf", "mimetype:image/jpeg", "mimetype:image/png", "mimetype:application/zip",
               "mimetype:multipart/mixed", "attachment:report budget", "attachment:pdf tag:unread",
               "mimetype:image/png from:alice", "attachment:photo lunch", "mimetype:application/zip deploy",
               "attachment:figures quarterly", "attachment:chart roadmap"]
BOOLEANS = ["quarterly AND invoice", "deploy OR rollback", "lunch NOT birthday", "(budget OR invoice) tag:unread",
            "kubernetes -tag:unread", "from:alice OR from:bob", "NOT tag:unread roadmap",
            "(deploy OR release) AND NOT regression", "passport OR visa OR luggage", "interview AND offer",
            "museum OR cinema OR concert", "patch NOT (driver OR scheduler)", "(flight hotel) OR itinerary",
            "audit AND NOT ledger", "compliance OR privacy", "(lunch OR dinner) from:maria",
            "schema AND (index OR migration)", "renewal -contract", "quota OR territory", "bisect AND regression"]
# Folders are filled in from the store's folder table (Maildir++ name -> tree path).
FOLDER_EXTRAS = ["quarterly", "deploy", "lunch", "invoice", "patch", "kubernetes", "roadmap", "travel",
                 "tag:unread", "tag:flagged", "from:alice", "date:2026-10"]


def kinds(folders: list) -> dict:
    """Kind -> 20 notmuch queries. `folders`: the Maildir++ names ("" for the inbox, ".Big")."""
    quoted = [f'folder:"{name}"' if name == "" else f"folder:{name}" for name in folders]
    folder_queries = quoted + [f"{quoted[index % len(quoted)]} {extra}" for index, extra in enumerate(FOLDER_EXTRAS)]
    return {
        "word": WORDS,
        "phrase": [f'"{phrase}"' for phrase in PHRASES],
        "from:": [f"from:{name}" for name in FIRST_NAMES],
        "to:": [f"to:{name}" for name in LAST_NAMES],
        "subject:": [f"subject:{word}" for word in SUBJECT_WORDS],
        "date:": DATES,
        "tag:": TAGS,
        "folder:": folder_queries[:20],
        "attachment:/mimetype:": ATTACHMENTS,
        "AND/OR/NOT": BOOLEANS,
    }


def mailfs_spelling(query: str, tree_paths: dict) -> str:
    """The same query as a mailfs directory name: folders by tree path (with "." for "/",
    which mailfs's folder: also takes) and "/" inside values as "." (the index splits both
    into the same words)."""
    for name, path in sorted(tree_paths.items(), key=lambda item: -len(item[0])):
        notmuch = f'folder:"{name}"' if name == "" else f"folder:{name}"
        if notmuch in query:
            dotted = path.replace("/", ".")
            query = query.replace(notmuch, "folder:" + (f'"{dotted}"' if " " in dotted else dotted))
    return query.replace("/", ".")
