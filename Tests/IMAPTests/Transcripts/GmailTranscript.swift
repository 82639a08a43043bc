/// A Gmail session: XOAUTH2 failure and retry, XLIST and SPECIAL-USE LIST with
/// localized names, SELECT of All Mail, and FETCH with the X-GM-EXT-1 items.
enum GmailTranscript {
    static let session = """
        * OK Gimap ready for requests from 192.0.2.7 z1mb123456
        * CAPABILITY IMAP4rev1 UNSELECT IDLE NAMESPACE QUOTA ID XLIST CHILDREN X-GM-EXT-1 XYZZY SASL-IR AUTH=XOAUTH2 AUTH=PLAIN AUTH=PLAIN-CLIENTTOKEN AUTH=OAUTHBEARER
        g0 OK Thats all she wrote! z1mb123456
        + eyJzdGF0dXMiOiI0MDAiLCJzY2hlbWVzIjoiQmVhcmVyIiwic2NvcGUiOiJodHRwczovL21haWwuZ29vZ2xlLmNvbS8ifQ==
        g1 NO [AUTHENTICATIONFAILED] Invalid credentials (Failure)
        * CAPABILITY IMAP4rev1 UNSELECT IDLE NAMESPACE QUOTA ID XLIST CHILDREN X-GM-EXT-1 UIDPLUS COMPRESS=DEFLATE ENABLE MOVE CONDSTORE ESEARCH UTF8=ACCEPT LIST-EXTENDED LIST-STATUS LITERAL- SPECIAL-USE APPENDLIMIT=35651584
        g2 OK user@gmail.com authenticated (Success)
        * XLIST (\\HasNoChildren \\Inbox) "/" "Inbox"
        * XLIST (\\HasChildren \\Noselect) "/" "[Gmail]"
        * XLIST (\\AllMail \\HasNoChildren) "/" "[Gmail]/Alle Nachrichten"
        g3 OK Success
        * LIST (\\HasNoChildren) "/" "INBOX"
        * LIST (\\HasChildren \\Noselect) "/" "[Gmail]"
        * LIST (\\All \\HasNoChildren) "/" "[Gmail]/Alle Nachrichten"
        * LIST (\\HasNoChildren \\Important) "/" "[Gmail]/Wichtig"
        * LIST (\\HasNoChildren \\Sent) "/" "[Gmail]/Gesendet"
        * LIST (\\Flagged \\HasNoChildren) "/" "[Gmail]/Markiert"
        * LIST (\\HasNoChildren \\Trash) "/" "[Gmail]/Papierkorb"
        * LIST (\\HasNoChildren) "/" "Projekte/&AMQ-nderungen"
        g4 OK Success
        * FLAGS (\\Answered \\Flagged \\Draft \\Deleted \\Seen $NotPhishing $Phishing)
        * OK [PERMANENTFLAGS (\\Answered \\Flagged \\Draft \\Deleted \\Seen $NotPhishing $Phishing \\*)] Flags permitted.
        * OK [UIDVALIDITY 11] UIDs valid.
        * 1234 EXISTS
        * 0 RECENT
        * OK [UIDNEXT 5678] Predicted next UID.
        * OK [HIGHESTMODSEQ 2345678]
        g5 OK [READ-WRITE] [Gmail]/Alle Nachrichten selected. (Success)
        * 1 FETCH (X-GM-THRID 1266894439832287888 X-GM-MSGID 1278455344230334865 X-GM-LABELS (\\Inbox \\Sent Important "Muy Importante" "[Imap]/Drafts" +IMNews) UID 4 MODSEQ (2345001) FLAGS (\\Seen $Forwarded [Gmail]Spam))
        * 2 FETCH (X-GM-THRID 1266894439832287888 X-GM-MSGID 1278455344230334866 X-GM-LABELS () UID 9 MODSEQ (2345002) FLAGS ())
        g6 OK Success [THROTTLED]
        g7 NO [ALERT] Too many simultaneous connections. (Failure)

        """
}
