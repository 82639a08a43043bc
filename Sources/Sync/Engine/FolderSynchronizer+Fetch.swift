import Foundation
import IMAP
import MailCore
import Store

/// Fetching new messages: first what identifies them (size, header, flags), so a message
/// the store already holds from another folder (a COPY, a Gmail label) or from before a
/// UIDVALIDITY change is only linked (FR-SYNC-01; docs/SYNC-RULES.md, "The same message");
/// then small messages whole and large ones in parts.
extension FolderSynchronizer {
    struct BatchOutcome {
        var added = 0
        var linked = 0
        var failed = 0
    }

    private struct Candidate {
        var identity: ServerIdentity
        var flags: MessageFlags
        var arrival: Date

        var uid: Int64 { Int64(identity.uid) }
        var size: Int { identity.fingerprint.size }
    }

    static let identityItems = ["FLAGS", "INTERNALDATE"] + ServerIdentity.fetchItems

    /// A batch as downloaded, not yet stored.
    private struct FetchedBatch: Sendable {
        /// Copies of messages the store holds (a COPY, a Gmail label): linked, not downloaded.
        var known: [MailStore.ServerMessage]
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
                let fetched = try await fetch(batch, folderId: folderId, connection: connection)
                try await finishStoring(into: &result)
                storing = (batch, store(fetched, folderId: folderId))
            }
        } catch {
            try await finishStoring(into: &result)
            throw error
        }
        try await finishStoring(into: &result)
    }

    /// Downloads what the store lacks of `uids`: what identifies each message first, then
    /// the bodies of the ones that are not copies of stored messages. Known copies are found
    /// by a read, without waiting for the batch being written; they are linked when stored.
    private func fetch(_ uids: [Int64], folderId: Int64, connection: IMAPConnection) async throws -> FetchedBatch {
        let identities = try await connection.uidFetch(UIDSet(uids: uids.map { UInt32(clamping: $0) }), items: Self.identityItems)
        let fetched = identities.compactMap { attributes in
            ServerIdentity(attributes).map {
                Candidate(identity: $0, flags: Self.messageFlags(attributes.flags ?? []), arrival: attributes.internalDate ?? Date())
            }
        }
        let servers = fetched.map {
            MailStore.ServerMessage(fingerprint: $0.identity.fingerprint, messageID: $0.identity.messageID, uid: $0.uid)
        }
        let copies = try store.serverCopies(servers, accountId: accountId, folderId: folderId)
        let candidates = fetched.filter { !copies.contains($0.uid) }
        var failed = 0
        // A UID the server did not answer for has vanished meanwhile: nothing to store.
        let small = candidates.filter { $0.size <= rawStoreMaxBytes }
        let large = candidates.filter { $0.size > rawStoreMaxBytes }
        var incoming: [IncomingMessage] = []
        for group in Self.groups(small, maxBytes: Self.bodyBatchBytes) {
            let bodies = try await connection.uidFetch(UIDSet(uids: group.map { UInt32(clamping: $0.uid) }), items: ["BODY.PEEK[]"])
            var byUID: [Int64: FetchAttributes] = [:]
            for attributes in bodies { if let uid = attributes.uid { byUID[Int64(uid)] = attributes } }
            for candidate in group {
                guard let raw = byUID[candidate.uid]?.bodySections[BodySection("")] else {
                    failed += 1
                    log.record("UID \(candidate.uid): server sent no content; retried next sync", level: .warning)
                    continue
                }
                incoming.append(IncomingMessage(raw: raw, folderId: folderId, uid: candidate.uid, flags: candidate.flags,
                                                arrival: candidate.arrival, fingerprint: candidate.identity.fingerprint))
            }
        }
        for candidate in large {
            do {
                let partial = try await fetchPartial(candidate.identity, connection: connection)
                incoming.append(IncomingMessage(content: .partial(partial), folderId: folderId, uid: candidate.uid,
                                                flags: candidate.flags, arrival: candidate.arrival))
            } catch let error as IMAPError where !error.endsConnection {
                failed += 1
                log.record("UID \(candidate.uid): \(error); retried next sync", level: .warning)
            }
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

    /// Structure and text bodies of a message too large to store whole; its header came
    /// with its identity.
    private func fetchPartial(_ identity: ServerIdentity, connection: IMAPConnection) async throws -> PartialContent {
        let set = UIDSet(uids: [identity.uid])
        let header = identity.header
        let size = identity.fingerprint.size
        let meta = try await connection.uidFetch(set, items: ["BODYSTRUCTURE"]).first
        guard let structure = meta?.bodyStructure else {
            return PartialContent(header: header, bodyPlain: nil, bodyHTML: nil, attachments: [], size: size)
        }
        let texts = PartialMessageBuilder.textSections(of: structure)
        let leaves = [texts.plain, texts.html].compactMap { $0 }
        let limit = MessageParser.maxBodyBytes
        var decoded: [String: String] = [:]
        if !leaves.isEmpty {
            let items = leaves.map { "BODY.PEEK[\($0.section)]<0.\(limit)>" }
            let fetched = try await connection.uidFetch(set, items: items).first
            for leaf in leaves {
                let bytes = fetched?.bodySections.first { $0.key.spec == leaf.section }?.value ?? []
                decoded[leaf.section] = MessageParser.decodeText(
                    bytes, transferEncoding: leaf.part.encoding ?? "7bit",
                    charset: leaf.part.parameters["charset"], truncated: leaf.part.size > UInt64(limit))
            }
        }
        return PartialContent(
            header: header, bodyPlain: texts.plain.flatMap { decoded[$0.section] },
            bodyHTML: texts.html.flatMap { decoded[$0.section] },
            attachments: PartialMessageBuilder.attachments(of: structure), size: size)
    }

    /// Consecutive groups whose announced sizes add up to at most `maxBytes` (one message
    /// larger than that is a group of its own).
    private static func groups(_ candidates: [Candidate], maxBytes: Int) -> [[Candidate]] {
        var groups: [[Candidate]] = []
        var current: [Candidate] = []
        var bytes = 0
        for candidate in candidates {
            if !current.isEmpty && bytes + candidate.size > maxBytes {
                groups.append(current)
                current = []
                bytes = 0
            }
            current.append(candidate)
            bytes += candidate.size
        }
        if !current.isEmpty { groups.append(current) }
        return groups
    }
}
