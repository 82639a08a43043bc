import Activity
import Foundation
@testable import IMAP
import Logging
import MailCore
@testable import Store
@testable import Sync
import TestSupport
import Testing

/// New messages are fetched a batch at a time: small ones whole, large ones described and
/// their texts fetched (`FolderSynchronizer.fetchPartials`), their headers first only when
/// the store may hold a copy of them. A command the server refuses is sent again for each
/// message alone, so one message the server cannot serve holds back no other. Played
/// against a scripted server: the test Dovecot could not be made to refuse a FETCH of
/// messages it can read, and the commands are what these tests look at.
@Suite("Messages fetched a batch at a time, and commands the server refuses")
struct BatchedFetchTests {
    @Test("a refused identity command is sent again per UID; the UID refused alone counts as failed, the others are stored")
    func refusedIdentities() async throws {
        let (outcome, stored) = try await Self.sync(size: 200, identities: """
            C: A0001 UID FETCH 1:3 (UID FLAGS INTERNALDATE RFC822.SIZE BODY.PEEK[HEADER])
            S: A0001 NO Some messages could not be FETCHed (Failure)
            C: A0002 UID FETCH 1 (UID FLAGS INTERNALDATE RFC822.SIZE BODY.PEEK[HEADER])
            \(Self.identity(uid: 1, size: 200))
            S: A0002 OK done
            C: A0003 UID FETCH 2 (UID FLAGS INTERNALDATE RFC822.SIZE BODY.PEEK[HEADER])
            S: A0003 NO Some messages could not be FETCHed (Failure)
            C: A0004 UID FETCH 3 (UID FLAGS INTERNALDATE RFC822.SIZE BODY.PEEK[HEADER])
            \(Self.identity(uid: 3, size: 200))
            S: A0004 OK done
            """, script: """
            C: A0005 UID FETCH 1,3 (UID BODY.PEEK[])
            \(Self.whole(uid: 1))
            \(Self.whole(uid: 3))
            S: A0005 OK done
            """)
        #expect(outcome.added == 2 && outcome.failed == 1, "\(outcome)")
        #expect(stored == ["Whole 1", "Whole 3"])
    }

    @Test("a refused command for whole messages is sent again per message; only the message refused alone is left out")
    func refusedBodies() async throws {
        let (outcome, stored) = try await Self.sync(size: 200, script: """
            C: A0002 UID FETCH 1:3 (UID BODY.PEEK[])
            S: A0002 NO Some messages could not be FETCHed (Failure)
            C: A0003 UID FETCH 1 (UID BODY.PEEK[])
            \(Self.whole(uid: 1))
            S: A0003 OK done
            C: A0004 UID FETCH 2 (UID BODY.PEEK[])
            S: A0004 NO Some messages could not be FETCHed (Failure)
            C: A0005 UID FETCH 3 (UID BODY.PEEK[])
            \(Self.whole(uid: 3))
            S: A0005 OK done
            """)
        #expect(outcome.added == 2 && outcome.failed == 1, "\(outcome)")
        #expect(stored == ["Whole 1", "Whole 3"])
    }

    @Test("a refused BODYSTRUCTURE command is sent again per message; only the message refused alone is left out")
    func refusedStructures() async throws {
        let (outcome, texts) = try await Self.sync(size: 500_000, script: """
            C: A0002 UID FETCH 1:3 (UID BODYSTRUCTURE)
            S: A0002 NO Some messages could not be FETCHed (Failure)
            C: A0003 UID FETCH 1 (UID BODYSTRUCTURE)
            \(Self.structure(uid: 1))
            S: A0003 OK done
            C: A0004 UID FETCH 1 (UID BODY.PEEK[1]<0.10485760>)
            \(Self.text(uid: 1))
            S: A0004 OK done
            C: A0005 UID FETCH 2 (UID BODYSTRUCTURE)
            S: A0005 NO Some messages could not be FETCHed (Failure)
            C: A0006 UID FETCH 3 (UID BODYSTRUCTURE)
            \(Self.structure(uid: 3))
            S: A0006 OK done
            C: A0007 UID FETCH 3 (UID BODY.PEEK[1]<0.10485760>)
            \(Self.text(uid: 3))
            S: A0007 OK done
            """)
        #expect(outcome.added == 2 && outcome.failed == 1, "\(outcome)")
        #expect(texts == ["text of message 1", "text of message 3"])
    }

    @Test("a refused text command is sent again per message; the others keep their texts")
    func refusedTexts() async throws {
        let (outcome, texts) = try await Self.sync(size: 500_000, script: """
            C: A0002 UID FETCH 1:3 (UID BODYSTRUCTURE)
            \(Self.structure(uid: 1))
            \(Self.structure(uid: 2))
            \(Self.structure(uid: 3))
            S: A0002 OK done
            C: A0003 UID FETCH 1:3 (UID BODY.PEEK[1]<0.10485760>)
            S: A0003 NO Some messages could not be FETCHed (Failure)
            C: A0004 UID FETCH 1 (UID BODY.PEEK[1]<0.10485760>)
            \(Self.text(uid: 1))
            S: A0004 OK done
            C: A0005 UID FETCH 2 (UID BODY.PEEK[1]<0.10485760>)
            S: A0005 NO Some messages could not be FETCHed (Failure)
            C: A0006 UID FETCH 3 (UID BODY.PEEK[1]<0.10485760>)
            \(Self.text(uid: 3))
            S: A0006 OK done
            """)
        #expect(outcome.added == 2 && outcome.failed == 1, "\(outcome)")
        #expect(texts == ["text of message 1", "text of message 3"])
    }

    @Test("more than a batch for a new account's first folder: no headers first, a large message's header with its structure, the server's sizes in the fingerprints")
    func firstFolderWithoutHeadersFirst() async throws {
        let (size, large) = (Self.wholeMessage(uid: 1).utf8.count + 7, 500_000)
        let summaries = (1...200).map { Self.summary(uid: $0, size: $0 == 1 ? size : $0 == 2 ? large : Self.wholeMessage(uid: $0).utf8.count) }
        let (outcome, stored) = try await Self.sync(uids: Array(1...201), size: 0, identities: "", script: """
            C: A0001 UID FETCH 1:200 (UID FLAGS INTERNALDATE RFC822.SIZE)
            \(summaries.joined(separator: "\n"))
            S: A0001 OK done
            C: A0002 UID FETCH 1,3:200 (UID BODY.PEEK[])
            \((1...200).filter { $0 != 2 }.map { Self.whole(uid: $0) }.joined(separator: "\n"))
            S: A0002 OK done
            C: A0003 UID FETCH 2 (UID BODYSTRUCTURE BODY.PEEK[HEADER])
            \(Self.structure(uid: 2, header: true))
            S: A0003 OK done
            C: A0004 UID FETCH 2 (UID BODY.PEEK[1]<0.10485760>)
            \(Self.text(uid: 2))
            S: A0004 OK done
            C: A0005 UID FETCH 201 (UID FLAGS INTERNALDATE RFC822.SIZE)
            \(Self.summary(uid: 201, size: Self.wholeMessage(uid: 201).utf8.count))
            S: A0005 OK done
            C: A0006 UID FETCH 201 (UID BODY.PEEK[])
            \(Self.whole(uid: 201))
            S: A0006 OK done
            """, query: "SELECT COALESCE(bodyPlain, subject) || ' ' || fingerprint FROM email WHERE messageId IN (?, ?)",
            arguments: ["1@batch.test", "2@batch.test"])
        #expect(outcome.added == 201 && outcome.failed == 0, "\(outcome)")
        let wholeHeader = Self.wholeMessage(uid: 1).components(separatedBy: "\r\n\r\n")[0] + "\r\n\r\n"
        #expect(Set(stored) == [
            "Whole 1 " + MessageFingerprint(size: size, header: Array(wholeHeader.utf8)).stored,
            "text of message 2 " + MessageFingerprint(size: large, header: Array(Self.largeHeader(uid: 2).utf8)).stored,
        ])
    }

    @Test("more than a batch, and the account holds a message elsewhere: headers come first, to find copies")
    func headersFirstWhenACopyMayBeStored() async throws {
        let identities = (1...200).map { Self.identity(uid: $0, size: 200) }
        let (outcome, _) = try await Self.sync(uids: Array(1...201), size: 0, elsewhere: true, identities: "", script: """
            C: A0001 UID FETCH 1:200 (UID FLAGS INTERNALDATE RFC822.SIZE BODY.PEEK[HEADER])
            \(identities.joined(separator: "\n"))
            S: A0001 OK done
            C: A0002 UID FETCH 1:200 (UID BODY.PEEK[])
            \((1...200).map { Self.whole(uid: $0) }.joined(separator: "\n"))
            S: A0002 OK done
            C: A0003 UID FETCH 201 (UID FLAGS INTERNALDATE RFC822.SIZE BODY.PEEK[HEADER])
            \(Self.identity(uid: 201, size: 200))
            S: A0003 OK done
            C: A0004 UID FETCH 201 (UID BODY.PEEK[])
            \(Self.whole(uid: 201))
            S: A0004 OK done
            """)
        #expect(outcome.added == 201 && outcome.failed == 0, "\(outcome)")
    }

    /// Syncs `uids` of a folder (1-3 unless told), every one of `size` bytes (stored whole
    /// up to 1 KB), with `script` played after their identities (one command, unless
    /// `identities` plays them); `elsewhere` stores a message in another folder first.
    /// Returns the outcome and `query`'s strings, by default, in Message-ID order, the plain
    /// texts of the messages stored in part or the subjects of those stored whole.
    private static func sync(uids: [Int64] = [1, 2, 3], size: Int, elsewhere: Bool = false, identities: String? = nil,
                             script: String, query: String = "SELECT COALESCE(bodyPlain, subject) FROM email ORDER BY messageId",
                             arguments: [String] = []) async throws -> (FolderSynchronizer.Result, [String]) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mailfs-large-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try MailStore(directory: directory)
        let accountId = try store.sync.ensureAccount(name: "work", address: "work@example.test", isOffline: false).id ?? -1
        let folderId = try store.sync.ensureFolder(accountId: accountId, path: "inbox", imapPath: "INBOX", type: .inbox).id ?? -1
        if elsewhere {
            let archive = try store.sync.ensureFolder(accountId: accountId, path: "Archive", imapPath: "Archive", type: .archive).id ?? -1
            let raw = Array("Message-ID: <archived@batch.test>\r\nSubject: Archived\r\n\r\nold\r\n".utf8)
            _ = try store.sync.ingest([IncomingMessage(raw: raw, folderId: archive, uid: 1, flags: MessageFlags(), arrival: Date())],
                                 accountId: accountId)
        }
        let synchronizer = FolderSynchronizer(store: store.sync, accountId: accountId, windowDays: 30, rawStoreMaxBytes: 1024,
                                              log: EventLog(), progress: { _, _ in }, logger: Logger(label: "test"))
        let server = ScriptedPeer()
        try await server.activate(port: 143)
        async let started = IMAPConnection.start(on: server.channel, timeouts: IMAPTimeouts(), logger: Logger(label: "test"))
        try await server.waitForClient(handler: IMAPClientHandler.self)
        try await server.send("* OK [CAPABILITY IMAP4rev1] ready")
        let connection = try await started
        async let synced: FolderSynchronizer.Result = {
            var result = FolderSynchronizer.Result()
            try await synchronizer.fetchNew(inBatches: uids, folderId: folderId, connection: connection, into: &result)
            return result
        }()
        try await server.play((identities ?? """
            C: A0001 UID FETCH 1:3 (UID FLAGS INTERNALDATE RFC822.SIZE BODY.PEEK[HEADER])
            \(identity(uid: 1, size: size))
            \(identity(uid: 2, size: size))
            \(identity(uid: 3, size: size))
            S: A0001 OK done
            """) + "\n" + script)
        let outcome = try await synced
        let stored = try await store.pool.read { db in try String.fetchAll(db, sql: query, arguments: .init(arguments)) }
        return (outcome, stored)
    }

    private static func largeHeader(uid: Int) -> String { "Message-ID: <\(uid)@batch.test>\r\nSubject: Large \(uid)\r\n\r\n" }

    private static func summary(uid: Int, size: Int) -> String {
        #"S: * \#(uid) FETCH (UID \#(uid) FLAGS () INTERNALDATE "29-Nov-2026 10:00:00 +0000" RFC822.SIZE \#(size))"#
    }

    private static func identity(uid: Int, size: Int) -> String {
        let header = largeHeader(uid: uid)
        return """
            S: * \(uid) FETCH (UID \(uid) FLAGS () INTERNALDATE "29-Nov-2026 10:00:00 +0000" RFC822.SIZE \(size) BODY[HEADER] {\(header.utf8.count)}
            S: Message-ID: <\(uid)@batch.test>
            S: Subject: Large \(uid)
            S: 
            S: )
            """
    }

    /// A whole small message (its own subject, so what is stored shows which bytes it got).
    private static func wholeMessage(uid: Int) -> String { "Message-ID: <\(uid)@batch.test>\r\nSubject: Whole \(uid)\r\n\r\nbody\r\n" }

    private static func whole(uid: Int) -> String {
        """
            S: * \(uid) FETCH (UID \(uid) BODY[] {\(wholeMessage(uid: uid).utf8.count)}
            S: Message-ID: <\(uid)@batch.test>
            S: Subject: Whole \(uid)
            S: 
            S: body
            S: )
            """
    }

    /// With its header when `header` (asked with the structure when it did not come first).
    private static func structure(uid: Int, header: Bool = false) -> String {
        let structure = #"BODYSTRUCTURE ("text" "plain" ("charset" "utf-8") NIL NIL "7bit" 500000 10000 NIL NIL NIL NIL)"#
        guard header else { return "S: * \(uid) FETCH (UID \(uid) \(structure))" }
        return """
            S: * \(uid) FETCH (UID \(uid) \(structure) BODY[HEADER] {\(largeHeader(uid: uid).utf8.count)}
            S: Message-ID: <\(uid)@batch.test>
            S: Subject: Large \(uid)
            S: 
            S: )
            """
    }

    private static func text(uid: Int) -> String {
        let body = "text of message \(uid)"
        return """
            S: * \(uid) FETCH (UID \(uid) BODY[1]<0> {\(body.utf8.count)}
            S: \(body))
            """
    }
}
