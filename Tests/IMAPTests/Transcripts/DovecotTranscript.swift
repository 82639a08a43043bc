/// A session with Dovecot 2.3 as it answers mailfs's sync commands, written in
/// Dovecot's own spelling (lower-case MIME types, `(0.001 + 0.000 secs)` timings).
enum DovecotTranscript {
    static let greetingAndLogin = """
        * OK [CAPABILITY IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE LITERAL+ STARTTLS AUTH=PLAIN] Dovecot (Debian) ready.
        a1 OK [CAPABILITY IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE IDLE SORT SORT=DISPLAY THREAD=REFERENCES \
        THREAD=REFS THREAD=ORDEREDSUBJECT MULTIAPPEND URL-PARTIAL CATENATE UNSELECT CHILDREN NAMESPACE UIDPLUS \
        LIST-EXTENDED I18NLEVEL=1 CONDSTORE QRESYNC ESEARCH ESORT SEARCHRES WITHIN CONTEXT=SEARCH LIST-STATUS \
        BINARY MOVE SNIPPET=FUZZY PREVIEW=FUZZY PREVIEW STATUS=SIZE SAVEDATE LITERAL+ NOTIFY SPECIAL-USE] Logged in

        """

    static let listSpecialUse = """
        * LIST (\\HasNoChildren) "/" INBOX
        * LIST (\\HasNoChildren \\Drafts) "/" Drafts
        * LIST (\\HasNoChildren \\Sent) "/" Sent
        * LIST (\\HasNoChildren \\Trash) "/" Trash
        * LIST (\\HasNoChildren \\Junk) "/" Junk
        * LIST (\\HasChildren) "/" "Entw&APw-rfe"
        * LIST (\\HasNoChildren) "/" "Entw&APw-rfe/Alt Stuff"
        a2 OK List completed (0.001 + 0.000 secs).

        """

    static let select = """
        * FLAGS (\\Answered \\Flagged \\Deleted \\Seen \\Draft)
        * OK [PERMANENTFLAGS (\\Answered \\Flagged \\Deleted \\Seen \\Draft \\*)] Flags permitted.
        * 3 EXISTS
        * 0 RECENT
        * OK [UNSEEN 2] First unseen.
        * OK [UIDVALIDITY 1762351439] UIDs valid
        * OK [UIDNEXT 4] Predicted next UID
        * OK [HIGHESTMODSEQ 7] Highest
        a3 OK [READ-WRITE] Select completed (0.002 + 0.000 + 0.001 secs).

        """

    /// ENVELOPE + BODYSTRUCTURE of a multipart/mixed holding an alternative, a base64
    /// PDF attachment and a forwarded message/rfc822 with its own multipart body.
    static let fetchStructure = """
        * 1 FETCH (UID 1 FLAGS (\\Seen) INTERNALDATE "05-Nov-2026 14:03:59 +0100" RFC822.SIZE 9133 \
        ENVELOPE ("Thu, 05 Nov 2026 14:03:57 +0100" "=?UTF-8?Q?Quartalsbericht_f=C3=BCr_Q3?=" \
        (("Alice Example" NIL "alice" "example.com")) (("Alice Example" NIL "alice" "example.com")) \
        (("Alice Example" NIL "alice" "example.com")) ((NIL NIL "bob" "example.org")("Carol" NIL "carol" "example.org")) \
        NIL NIL "<prev@example.com>" "<report-3@example.com>") \
        BODYSTRUCTURE ((("text" "plain" ("charset" "utf-8") NIL NIL "quoted-printable" 120 4 NIL NIL NIL NIL)\
        ("text" "html" ("charset" "utf-8") NIL NIL "quoted-printable" 300 8 NIL NIL NIL NIL) \
        "alternative" ("boundary" "alt-b") NIL NIL NIL)\
        ("application" "pdf" ("name" "report.pdf") NIL NIL "base64" 4096 NIL \
        ("attachment" ("filename" "report.pdf" "size" "3000")) NIL NIL)\
        ("message" "rfc822" NIL NIL "Forwarded" "7bit" 800 \
        ("Mon, 2 Nov 2026 10:00:00 +0000" "Fwd" (("Bob" NIL "bob" "example.org")) (("Bob" NIL "bob" "example.org")) \
        (("Bob" NIL "bob" "example.org")) ((NIL NIL "alice" "example.com")) NIL NIL NIL "<inner@example.org>") \
        (("text" "plain" ("charset" "us-ascii") NIL NIL "7bit" 20 1 NIL NIL NIL NIL)\
        ("image" "png" ("name" "dot.png") "<img1@x>" NIL "base64" 100 NIL ("inline" ("filename" "dot.png")) NIL NIL) \
        "mixed" ("boundary" "inner-b") NIL NIL NIL) 25 NIL ("attachment" ("filename" "fwd.eml")) NIL NIL) \
        "mixed" ("boundary" "outer-b") NIL ("de" "en") NIL))
        * 2 FETCH (UID 2 FLAGS () INTERNALDATE " 6-Nov-2026 08:00:00 +0000" RFC822.SIZE 412 \
        ENVELOPE (NIL NIL NIL NIL NIL NIL NIL NIL NIL NIL) \
        BODYSTRUCTURE ("text" "plain" ("charset" "us-ascii") NIL NIL "7bit" 12 1 NIL NIL NIL NIL))
        a4 OK Fetch completed (0.003 + 0.000 + 0.002 secs).

        """

    static let message = """
        From: Alice Example <alice@example.com>
        To: bob@example.org
        Subject: hello {5}
        Message-ID: <report-3@example.com>

        Body line with ) and ( and "quotes"
        ..and a line that looks like a response:
        a5 OK not really

        """

    static let headerFields = "From: Alice Example <alice@example.com>\nSubject: hello\nMessage-ID: <report-3@example.com>\n\n"

    static let fetchBodies = """
        * 1 FETCH (UID 1 BODY[] \(literal(message)))
        * 1 FETCH (UID 1 BODY[HEADER.FIELDS (FROM SUBJECT MESSAGE-ID)] \(literal(headerFields)))
        * 1 FETCH (UID 1 MODSEQ (9) FLAGS (\\Seen \\Flagged))
        a5 OK Fetch completed (0.001 + 0.000 secs).

        """
}
