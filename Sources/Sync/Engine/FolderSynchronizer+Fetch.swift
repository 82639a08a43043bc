import Foundation
import IMAP
import MailCore
import Store

/// Fetching new messages: first what identifies them (size, header, flags), so a message
/// the store already holds from another folder (a COPY, a Gmail label) or from before a
/// UIDVALIDITY change is only linked (FR-SYNC-01; docs/SYNC-RULES.md, "The same message");
/// then small messages whole and large ones in parts. When the store holds nothing such a
/// message could be a copy of (a new account's first folder), the headers are not asked
/// for first: the bytes are what identifies them.
extension FolderSynchronizer {
    struct BatchOutcome {
        var added = 0
        var linked = 0
        var failed = 0
    }

    private struct Candidate {
        var uid: Int64
        var size: Int
        var flags: MessageFlags
        var arrival: Date
        /// What identifies it (fingerprint, Message-ID), when its header was fetched before
        /// the body to look for a stored copy.
        let identity: ServerIdentity?
        /// Its header section: the identity's, or for a large message without one, fetched
        /// with its structure.
        var header: [UInt8]?

        init?(_ attributes: FetchAttributes) {
            guard let uid = attributes.uid else { return nil }
            self.uid = Int64(uid)
            size = Int(clamping: attributes.rfc822Size ?? 0)
            flags = FolderSynchronizer.messageFlags(attributes.flags ?? [])
            arrival = attributes.internalDate ?? Date()
            identity = attributes.body(BodySection("HEADER")) == nil ? nil : ServerIdentity(attributes)
            header = identity?.header
        }
    }

    /// What a batch's first command asks of each message: with the header when a stored
    /// copy may be found by it (`ServerIdentity`), without it when none can.
    static let identityItems: [FetchItem] = [.flags, .internalDate] + ServerIdentity.fetchItems
    static let summaryItems: [FetchItem] = [.flags, .internalDate, .rfc822Size]

    /// A batch as downloaded, not yet stored.
    private struct FetchedBatch: Sendable {
        /// Copies of messages the store holds (a COPY, a Gmail label): linked, not downloaded.
        var known: [SyncStore.ServerMessage]
        var messages: PreparedBatch
        /// UIDs the server sent nothing for, or whose parts could not be fetched.
        var failed: Int
    }

    /// Fetches and stores `uids` (sorted) a batch at a time, adding each batch's outcome to
    /// `result`; `afterEach` runs after every stored batch (a checkpoint, progress), in order.
    /// A batch is stored on a thread of its own while the next one downloads and is parsed,
    /// so the server, the parser and SQLite's writes work at the same time. When a download
    /// fails, the batch before it is still stored and checkpointed before the error goes up.
    func fetchNew(inBatches uids: [Int64], folderId: Int64, connection: IMAPConnection, into result: inout Result,
                  afterEach: (_ batch: [Int64]) throws -> Void = { _ in }) async throws {
        let lookForCopies = try mayFindCopies(fetching: uids.count, folderId: folderId)
        var storing: (uids: [Int64], outcome: Task<BatchOutcome, Error>)?
        func finishStoring(into result: inout Result) async throws {
            guard let (batch, task) = storing else { return }
            storing = nil
            let outcome = try await task.value
            result.added += outcome.added
            result.linked += outcome.linked
            result.failed += outcome.failed
            try afterEach(batch)
        }
        do {
            for start in stride(from: 0, to: uids.count, by: Self.batchSize) {
                let batch = Array(uids[start..<min(start + Self.batchSize, uids.count)])
                let fetched = try await fetch(batch, folderId: folderId, lookForCopies: lookForCopies,
                                              connection: connection)
                try await finishStoring(into: &result)
                storing = (batch, store(fetched, folderId: folderId))
            }
        } catch {
            try await finishStoring(into: &result)
            throw error
        }
        try await finishStoring(into: &result)
    }

    /// Whether asking for the headers first can spare a download: unless the store holds a
    /// message of the account that this folder does not hold under a server UID, no new
    /// UID can be a copy of a stored message. The question reads the folder's messages, so
    /// it is asked only for more than a batch; a single batch pays one small command.
    /// Answered once: a copy stored meanwhile by another path (IDLE, a `cp`) is still
    /// linked by the ingest, whose transaction looks again; it only costs its download.
    private func mayFindCopies(fetching count: Int, folderId: Int64) throws -> Bool {
        guard count > Self.batchSize else { return true }
        return try store.holdsMessagesOutside(folderId: folderId, accountId: accountId)
    }

    /// Downloads what the store lacks of `uids`: what identifies each message first, then
    /// the bodies of the ones that are not copies of stored messages. Known copies are found
    /// by a read, without waiting for the batch being written; they are linked when stored.
    private func fetch(_ uids: [Int64], folderId: Int64, lookForCopies: Bool,
                       connection: IMAPConnection) async throws -> FetchedBatch {
        let items = lookForCopies ? Self.identityItems : Self.summaryItems
        let (described, refused) = try await describe(uids, items: items, connection: connection)
        let fetched = described.compactMap(Candidate.init)
        let servers = fetched.compactMap { candidate in
            candidate.identity.map { SyncStore.ServerMessage(fingerprint: $0.fingerprint, messageID: $0.messageID, uid: candidate.uid) }
        }
        let copies = servers.isEmpty ? [] : try store.serverCopies(servers, accountId: accountId, folderId: folderId)
        let candidates = fetched.filter { !copies.contains($0.uid) }
        var failed = refused
        // A UID the server did not answer for has vanished meanwhile: nothing to store.
        let small = candidates.filter { $0.size <= rawStoreMaxBytes }
        let large = candidates.filter { $0.size > rawStoreMaxBytes }
        var incoming: [IncomingMessage] = []
        for group in Self.groups(small, maxBytes: Self.bodyBatchBytes, size: \.size) {
            let bodies = try await wholeMessages(group, connection: connection)
            for candidate in group {
                // Left out when the server sent nothing for it or refused it (logged).
                guard let raw = bodies[candidate.uid] else {
                    failed += 1
                    continue
                }
                incoming.append(IncomingMessage(raw: raw, folderId: folderId, uid: candidate.uid, flags: candidate.flags,
                                                arrival: candidate.arrival, fingerprint: candidate.identity?.fingerprint,
                                                reportedSize: candidate.size))
            }
        }
        let partials = try await fetchPartials(large, connection: connection)
        for candidate in large {
            // Left out when a command for it failed (logged): fetched again next sync.
            guard let partial = partials[candidate.uid] else {
                failed += 1
                continue
            }
            incoming.append(IncomingMessage(content: .partial(partial), folderId: folderId, uid: candidate.uid,
                                            flags: candidate.flags, arrival: candidate.arrival))
        }
        return FetchedBatch(known: servers.filter { copies.contains($0.uid) },
                            messages: store.prepare(incoming), failed: failed)
    }

    /// Links and stores a fetched batch off the cooperative pool (`OffPool`): SQLite's calls
    /// block, and the pool's threads are the ones downloading the next batch.
    private func store(_ batch: FetchedBatch, folderId: Int64) -> Task<BatchOutcome, Error> {
        let (store, accountId, log) = (self.store, self.accountId, self.log)
        return Task {
            try await OffPool.run {
                Swift.Result {
                    let linked = try store.linkKnownMessages(batch.known, accountId: accountId, folderId: folderId)
                    // A copy found by the read may have changed since (another folder's
                    // sync removed it): downloaded next sync instead.
                    for message in batch.known where !linked.contains(message.uid) {
                        log.record("UID \(message.uid): its stored copy changed meanwhile; retried next sync", level: .warning)
                    }
                    let summary = try store.ingest(batch.messages, accountId: accountId)
                    return BatchOutcome(added: summary.added, linked: linked.count + summary.linked,
                                        failed: batch.failed + batch.known.count - linked.count)
                }
            }.get()
        }
    }

    /// `items` of the messages of `uids`, in one command; each UID alone when the server
    /// refuses it (Gmail refuses a whole FETCH for one message it cannot serve). The ones
    /// refused alone are logged and counted, to be fetched again next sync.
    private func describe(_ uids: [Int64], items: [FetchItem],
                          connection: IMAPConnection) async throws -> (found: [FetchAttributes], refused: Int) {
        do {
            return (try await connection.uidFetch(Self.uidSet(uids), items: items), 0)
        } catch {
            guard !error.endsConnection else { throw error }
            guard uids.count > 1 else {
                for uid in uids { log.record("UID \(uid): \(error); retried next sync", level: .warning) }
                return ([], uids.count)
            }
            var found: [FetchAttributes] = []
            var refused = 0
            for uid in uids {
                let one = try await describe([uid], items: items, connection: connection)
                found += one.found
                refused += one.refused
            }
            return (found, refused)
        }
    }

    /// The bytes of `group`'s messages, in one command; each message alone when the server
    /// refuses it. One the server sends nothing for is logged and left out, to be fetched
    /// again next sync.
    private func wholeMessages(_ group: [Candidate], connection: IMAPConnection) async throws -> [Int64: [UInt8]] {
        let fetched: [FetchAttributes]
        do {
            fetched = try await connection.uidFetch(Self.uidSet(group.map(\.uid)), items: [.bodyPeek("")])
        } catch {
            guard !error.endsConnection else { throw error }
            return try await oneByOne(group, refusedWith: error) { try await wholeMessages([$0], connection: connection) }
        }
        var bodies: [Int64: [UInt8]] = [:]
        for attributes in fetched {
            if let uid = attributes.uid, let raw = attributes.bodySections[BodySection("")] { bodies[Int64(uid)] = raw }
        }
        for candidate in group where bodies[candidate.uid] == nil {
            log.record("UID \(candidate.uid): server sent no content; retried next sync", level: .warning)
        }
        return bodies
    }

    /// A large message's text sections, to be fetched, with its structure.
    private struct TextFetch {
        var candidate: Candidate
        var structure: BodyStructure
        var plain: BodyStructure.Leaf?
        var html: BodyStructure.Leaf?

        init(_ candidate: Candidate, structure: BodyStructure) {
            self.candidate = candidate
            self.structure = structure
            (plain, html) = PartialMessageBuilder.textSections(of: structure)
        }

        var leaves: [BodyStructure.Leaf] { [plain, html].compactMap { $0 } }

        /// The most the server sends for them.
        var bytes: Int { leaves.reduce(0) { $0 + min(Int(clamping: $1.part.size), MessageParser.maxBodyBytes) } }

        /// The store's content: the text sections decoded from what `attributes` holds of
        /// them (empty texts when the server sent nothing for the message).
        func content(from attributes: FetchAttributes?) -> PartialContent {
            func text(_ leaf: BodyStructure.Leaf?) -> String? {
                guard let leaf else { return nil }
                let bytes = attributes?.bodySections.first { $0.key.spec == leaf.section }?.value ?? []
                return MessageParser.decodeText(
                    bytes, transferEncoding: leaf.part.encoding ?? "7bit", charset: leaf.part.parameters["charset"],
                    truncated: leaf.part.size > UInt64(MessageParser.maxBodyBytes))
            }
            return PartialContent(header: candidate.header ?? [], bodyPlain: text(plain), bodyHTML: text(html),
                                  attachments: PartialMessageBuilder.attachments(of: structure), size: candidate.size)
        }
    }

    /// Header, structure and text bodies of the messages too large to store whole: one
    /// BODYSTRUCTURE fetch for them all (with their headers unless those came first), then their text
    /// sections in commands of messages whose text lies in the same sections, at most
    /// `bodyBatchBytes` of it each. Two round trips a message, one after the other, held up
    /// the download (docs/DECISIONS.md, "Initial sync: where the CPU went"). A command the
    /// server refuses is sent again for each of its messages alone (Gmail refuses a whole
    /// FETCH for one message it cannot serve), so one such message holds back no other; the
    /// ones refused alone are left out, to be fetched again next sync.
    private func fetchPartials(_ candidates: [Candidate], connection: IMAPConnection) async throws -> [Int64: PartialContent] {
        guard !candidates.isEmpty else { return [:] }
        var structures: [Int64: BodyStructure] = [:]
        var headers: [Int64: [UInt8]] = [:]
        let items: [FetchItem] = [.bodyStructure] + (candidates.contains { $0.header == nil } ? [.bodyPeek("HEADER")] : [])
        do {
            for attributes in try await connection.uidFetch(Self.uidSet(candidates.map(\.uid)), items: items) {
                guard let uid = attributes.uid.map(Int64.init) else { continue }
                if let structure = attributes.bodyStructure { structures[uid] = structure }
                if let header = attributes.body(BodySection("HEADER")) { headers[uid] = header }
            }
        } catch {
            guard !error.endsConnection else { throw error }
            return try await oneByOne(candidates, refusedWith: error) { try await fetchPartials([$0], connection: connection) }
        }
        var contents: [Int64: PartialContent] = [:]
        var fetches: [TextFetch] = []
        for var candidate in candidates {
            candidate.header = candidate.header ?? headers[candidate.uid]
            guard let structure = structures[candidate.uid] else {
                // No structure given: stored with its header alone.
                contents[candidate.uid] = PartialContent(header: candidate.header ?? [], bodyPlain: nil, bodyHTML: nil,
                                                         attachments: [], size: candidate.size)
                continue
            }
            let fetch = TextFetch(candidate, structure: structure)
            if fetch.leaves.isEmpty {
                contents[candidate.uid] = fetch.content(from: nil)
            } else {
                fetches.append(fetch)
            }
        }
        for command in Self.textCommands(fetches) {
            contents.merge(try await texts(command, connection: connection)) { first, _ in first }
        }
        return contents
    }

    /// One command for the text sections of `command`'s messages, which lie in the same
    /// sections; each message alone when the server refuses it.
    private func texts(_ command: [TextFetch], connection: IMAPConnection) async throws -> [Int64: PartialContent] {
        let items = command[0].leaves.map {
            FetchItem.bodyPeek(BodySection($0.section), partial: 0..<UInt32(MessageParser.maxBodyBytes))
        }
        do {
            let fetched = try await connection.uidFetch(Self.uidSet(command.map(\.candidate.uid)), items: items)
            var byUID: [Int64: FetchAttributes] = [:]
            for attributes in fetched { if let uid = attributes.uid { byUID[Int64(uid)] = attributes } }
            var contents: [Int64: PartialContent] = [:]
            for fetch in command { contents[fetch.candidate.uid] = fetch.content(from: byUID[fetch.candidate.uid]) }
            return contents
        } catch {
            guard !error.endsConnection else { throw error }
            return try await oneByOne(command.map(\.candidate), refusedWith: error) { candidate in
                try await texts(command.filter { $0.candidate.uid == candidate.uid }, connection: connection)
            }
        }
    }

    /// After the server refused a command for `candidates` with `error`: `fetch` for each of
    /// them alone; a single message refused is logged and left out.
    private func oneByOne<Content>(_ candidates: [Candidate], refusedWith error: IMAPError,
                                   _ fetch: (Candidate) async throws -> [Int64: Content]) async throws -> [Int64: Content] {
        guard candidates.count > 1 else {
            for candidate in candidates { log.record("UID \(candidate.uid): \(error); retried next sync", level: .warning) }
            return [:]
        }
        var contents: [Int64: Content] = [:]
        for candidate in candidates { contents.merge(try await fetch(candidate)) { first, _ in first } }
        return contents
    }

    /// `fetches` cut into commands: the messages whose text lies in the same sections, in
    /// their order, at most `bodyBatchBytes` of text a command.
    private static func textCommands(_ fetches: [TextFetch]) -> [[TextFetch]] {
        var sections: [[String]] = []
        var alike: [[String]: [TextFetch]] = [:]
        for fetch in fetches {
            let key = fetch.leaves.map(\.section)
            if alike[key] == nil { sections.append(key) }
            alike[key, default: []].append(fetch)
        }
        return sections.flatMap { groups(alike[$0] ?? [], maxBytes: bodyBatchBytes, size: \.bytes) }
    }

    private static func uidSet(_ uids: [Int64]) -> UIDSet { UIDSet(uids: uids.map { UInt32(clamping: $0) }) }

    /// Consecutive groups whose sizes add up to at most `maxBytes` (one item larger than
    /// that is a group of its own).
    private static func groups<Item>(_ items: [Item], maxBytes: Int, size: (Item) -> Int) -> [[Item]] {
        var groups: [[Item]] = []
        var current: [Item] = []
        var bytes = 0
        for item in items {
            if !current.isEmpty && bytes + size(item) > maxBytes {
                groups.append(current)
                current = []
                bytes = 0
            }
            current.append(item)
            bytes += size(item)
        }
        if !current.isEmpty { groups.append(current) }
        return groups
    }
}
