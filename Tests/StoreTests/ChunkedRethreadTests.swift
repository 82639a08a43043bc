import Foundation
import GRDB
import Testing
import MailCore
@testable import Store
import TestSupport

/// `rethread` reads the summary columns a chunk of groups at a time (`GroupChunking`),
/// and regroups only what changed (`RethreadScope`); these tests run the same mailbox
/// history through tiny chunks and one chunk, and through the changed part and the
/// whole account, and require the same threads, names, summaries, memberships and
/// `touched` sets.
@Suite("Rethreading in chunks")
struct ChunkedRethreadTests {
    static let tiny = GroupChunking(maxGroups: 3, maxMessages: 7)
    static let whole = GroupChunking(maxGroups: .max, maxMessages: .max)

    @Test("tiny chunks and one chunk give the same threads through merges and deletions")
    func sameAsOneChunk() throws {
        let chunked = try History(chunking: Self.tiny)
        let single = try History(chunking: Self.whole)
        var corpus = Corpus(seed: 11)
        for round in 0..<3 {
            let batch = corpus.next(count: round == 0 ? 400 : 120)
            try expectSame(chunked, single, "round \(round)") { try $0.ingestAndRethread(batch) }
        }
        let doomed = Array(stride(from: Int64(5), through: 600, by: 7))
        #expect(try !expectSame(chunked, single, "deletion") { try $0.deleteAndRethread(doomed) }.isEmpty)
        #expect(try chunked.snapshot().threads.count > 3 * 7, "spans many chunks")
    }

    @Test("settling only the groups that changed gives the threads, names, summaries and touched sets of settling every group")
    func skippingSettledGroupsChangesNothing() throws {
        let skipping = try History(chunking: Self.tiny)
        let settlingAll = try History(chunking: Self.tiny, settlingAll: true)
        var corpus = Corpus(seed: 23)
        var generator = SeededGenerator(state: 7)
        for round in 0..<4 {
            let batch = corpus.next(count: round == 0 ? 300 : 40)
            try expectSame(skipping, settlingAll, "round \(round)") { try $0.ingestAndRethread(batch) }
            // Read and unread elsewhere, then messages removed: the next round's rethread sees both.
            let flagged = (0..<15).map { _ in Int64.random(in: 1...Int64(300 + 40 * round), using: &generator) }
            let seen = Bool.random(using: &generator)
            for history in [skipping, settlingAll] {
                for id in flagged { try history.temp.store.setFlag(.seen, to: seen, emailId: id) }
            }
            if round == 2 {
                let doomed = Array(stride(from: Int64(3), through: 340, by: 11))
                #expect(try !expectSame(skipping, settlingAll, "deletion") { try $0.deleteAndRethread(doomed) }.isEmpty)
            }
        }
        #expect(try skipping.snapshot().threads.count > 50)
    }

    @Test("a rethread with nothing new settles no group: it touches no thread")
    func nothingNewTouchesNothing() throws {
        let history = try History(chunking: Self.whole)
        var corpus = Corpus(seed: 3)
        _ = try history.ingestAndRethread(corpus.next(count: 200))
        let before = try history.snapshot()
        for extent in [MailStore.RethreadExtent.changed, .whole] {
            #expect(try history.temp.store.sync.rethread(accountId: history.account, extent: extent, chunking: Self.whole)
                .isEmpty)
            #expect(try history.snapshot() == before)
        }
    }

    @Test("regrouping only what changed gives the threads, names, summaries and touched sets of a whole-account pass")
    func changedMatchesWhole() throws {
        let changed = try History(chunking: Self.tiny)
        let whole = try History(chunking: Self.tiny, extent: .whole)
        var corpus = Corpus(seed: 41)
        var generator = SeededGenerator(state: 9)
        var stored = 0
        for round in 0..<12 {
            let batch = corpus.next(count: round == 0 ? 150 : Int.random(in: 1...30, using: &generator))
            stored += batch.count
            try expectSame(changed, whole, "round \(round)") { try $0.ingestAndRethread(batch) }
            guard round % 3 == 2 else { continue }
            // Roots, replies and subject links go: threads split, shrink and vanish.
            let doomed = (0..<8).map { _ in Int64.random(in: 1...Int64(stored), using: &generator) }
            try expectSame(changed, whole, "deletion, round \(round)") { try $0.deleteAndRethread(doomed) }
        }
        #expect(try changed.snapshot().threads.count > 40)
        #expect(try !changed.temp.store.sync.owesRethread(accountId: changed.account))
    }

    @Test("a deleted message takes its keys along and marks its thread stale until a rethread settles it; an empty thread goes")
    func deletionMarksThreadStale() throws {
        let history = try History(chunking: Self.whole)
        var corpus = Corpus(seed: 3)
        _ = try history.ingestAndRethread(corpus.next(count: 60))
        let lonely = try history.temp.store.pool.read { db in
            try #require(try Int64.fetchOne(db, sql: """
                SELECT MIN(e.id) FROM email e JOIN thread t ON t.id = e.threadId WHERE t.messageCount = 1
                """))
        }
        #expect(try !history.temp.store.sync.owesRethread(accountId: history.account))
        let keys = { try history.temp.store.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM threadLink WHERE emailId = ?", arguments: [lonely]) ?? 0
        } }
        #expect(try keys() > 0)
        try history.temp.store.pool.write { db in try db.execute(sql: "DELETE FROM email WHERE id = ?", arguments: [lonely]) }
        #expect(try keys() == 0, "a deleted message's keys go with it")
        #expect(try history.temp.store.sync.owesRethread(accountId: history.account))
        let touched = try history.temp.store.sync.rethread(accountId: history.account)
        #expect(touched.count == 1)
        #expect(try !history.temp.store.sync.owesRethread(accountId: history.account))
        let threadsLeft = try history.temp.store.pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM thread WHERE id IN (\(touched.map(String.init).joined(separator: ",")))")
        }
        #expect(threadsLeft == 0)
    }

    @Test("each thread holds one group of ThreadGrouper with ThreadMetadata's summary")
    func matchesGrouperAndMetadata() throws {
        let history = try History(chunking: Self.tiny)
        var corpus = Corpus(seed: 5)
        _ = try history.ingestAndRethread(corpus.next(count: 300))
        let (inputs, summaries) = try history.messages()
        let snapshot = try history.snapshot()
        var membersOfThread: [Int64: [Int64]] = [:]
        for (id, threadId) in snapshot.threadOfEmail { membersOfThread[threadId ?? -1, default: []].append(id) }
        let groups = membersOfThread.values.map { $0.sorted() }.sorted { $0.lexicographicallyPrecedes($1) }
        #expect(groups == ThreadGrouper.group(inputs))
        for thread in snapshot.threads {
            let members = try #require(membersOfThread[thread.id ?? -1]).compactMap { summaries[$0] }
            let metadata = try #require(ThreadMetadata(messages: members))
            #expect(thread.subject == metadata.subject && thread.messageCount == metadata.messageCount)
            #expect(thread.unreadCount == metadata.unreadCount && thread.snippet == metadata.snippet)
        }
    }
}

/// Runs `step` on both histories, which must touch the same threads and end alike (threads,
/// ids, names, summaries, memberships); returns what the first touched.
@discardableResult
private func expectSame(_ first: History, _ second: History, _ label: String,
                        sourceLocation: SourceLocation = #_sourceLocation,
                        _ step: (History) throws -> Set<Int64>) throws -> Set<Int64> {
    let touched = try (step(first), step(second))
    #expect(touched.0 == touched.1, "\(label)", sourceLocation: sourceLocation)
    #expect(try first.snapshot() == second.snapshot(), "\(label)", sourceLocation: sourceLocation)
    return touched.0
}

/// A store and the chunking its rethreads use.
private final class History {
    let temp: TemporaryStore
    let account: Int64
    let inbox: Int64
    let chunking: GroupChunking
    let extent: MailStore.RethreadExtent
    /// Every rethread settles every group (`IngestingStore.rethread`'s `settlingAll`).
    let settlingAll: Bool
    private var uid: Int64 = 0

    init(chunking: GroupChunking, extent: MailStore.RethreadExtent = .changed, settlingAll: Bool = false) throws {
        temp = try TemporaryStore()
        account = try temp.account()
        inbox = try temp.folder(account, "inbox", type: .inbox)
        self.chunking = chunking
        self.extent = extent
        self.settlingAll = settlingAll
    }

    func ingestAndRethread(_ batch: [(raw: [UInt8], seen: Bool)]) throws -> Set<Int64> {
        let incoming = batch.map { message in
            uid += 1
            return temp.incoming(message.raw, folder: inbox, uid: uid, seen: message.seen)
        }
        _ = try temp.store.sync.ingest(incoming, accountId: account)
        return try temp.store.sync.rethread(accountId: account, extent: extent, chunking: chunking, settlingAll: settlingAll)
    }

    func deleteAndRethread(_ ids: [Int64]) throws -> Set<Int64> {
        try temp.store.pool.write { db in
            try db.execute(sql: "DELETE FROM email WHERE id IN (\(databaseQuestionMarks(count: ids.count)))",
                           arguments: StatementArguments(ids))
        }
        return try temp.store.sync.rethread(accountId: account, extent: extent, chunking: chunking, settlingAll: settlingAll)
    }

    struct Snapshot: Equatable {
        var threads: [ThreadRecord]
        var threadOfEmail: [Int64: Int64?]
    }

    func snapshot() throws -> Snapshot {
        try temp.store.pool.read { db in
            let threads = try ThreadRecord.order(Column("id")).fetchAll(db)
            var threadOfEmail: [Int64: Int64?] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, threadId FROM email") {
                threadOfEmail[row[0]] = .some(row[1])
            }
            return Snapshot(threads: threads, threadOfEmail: threadOfEmail)
        }
    }

    /// Every message as threading and thread metadata see it.
    func messages() throws -> ([ThreadingInput], [Int64: ThreadMessageSummary]) {
        try temp.store.pool.read { db in
            let ids = try Int64.fetchAll(db, sql: "SELECT id FROM email")
            let members = try ThreadMember.fetch(db, ids: ids)
            let inputs = try Row.fetchAll(db, sql: "SELECT \(ThreadingRow.columns) FROM email").map(ThreadingRow.input)
            return (inputs, members.mapValues(\.summary))
        }
    }
}

/// Seeded mail: new conversations, replies to earlier messages (by In-Reply-To or
/// References), replies to messages never seen, and headerless messages that join by
/// subject within 30 days, so groups form, grow and merge across chunks.
private struct Corpus {
    private var generator: SeededGenerator
    private var sent: [(id: String, subject: String, day: Int)] = []
    private var day = 0

    init(seed: UInt64) { generator = SeededGenerator(state: seed) }

    mutating func next(count: Int) -> [(raw: [UInt8], seen: Bool)] {
        (0..<count).map { _ in message() }
    }

    private mutating func message() -> (raw: [UInt8], seen: Bool) {
        day += Int.random(in: 0...2, using: &generator)
        let id = "m\(sent.count)@corpus"
        let from = ["Alice <alice@x.org>", "Bob <bob@x.org>", "carol@x.org", "Dan <DAN@x.org>"]
            .randomElement(using: &generator)!
        var subject = "Topic \(Int.random(in: 0..<60, using: &generator))"
        var inReplyTo: String?
        var references: [String] = []
        switch Int.random(in: 0..<10, using: &generator) {
        case 0..<4 where !sent.isEmpty:
            let parent = sent.randomElement(using: &generator)!
            subject = "Re: " + parent.subject
            inReplyTo = parent.id
            if Bool.random(using: &generator) { references = [parent.id] }
        case 4:
            references = ["ghost\(Int.random(in: 0..<20, using: &generator))@elsewhere"]
        default:
            break
        }
        sent.append((id, subject, day))
        let date = Date(timeIntervalSince1970: 1_780_000_000 + Double(day) * 86_400)
        let raw = Fixture.message(id: id, subject: subject, from: from, date: MessageDate.rfc5322(date),
                                  inReplyTo: inReplyTo, references: references,
                                  body: "Body of \(id), written on day \(day).\n")
        return (raw, Bool.random(using: &generator))
    }
}
