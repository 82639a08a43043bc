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

    /// Fetches and stores `uids` (sorted) a batch at a time, adding each batch's outcome to
    /// `result`; `afterEach` runs after every stored batch (a checkpoint, progress).
    func fetchNew(inBatches uids: [Int64], folderId: Int64, connection: IMAPConnection, into result: inout Result,
                  afterEach: (_ batch: [Int64]) throws -> Void = { _ in }) async throws {
        for start in stride(from: 0, to: uids.count, by: Self.batchSize) {
            let batch = Array(uids[start..<min(start + Self.batchSize, uids.count)])
            let outcome = try await fetchNew(batch, folderId: folderId, connection: connection)
            result.added += outcome.added
            result.linked += outcome.linked
            result.failed += outcome.failed
            try afterEach(batch)
        }
    }

    func fetchNew(_ uids: [Int64], folderId: Int64, connection: IMAPConnection) async throws -> BatchOutcome {
        var outcome = BatchOutcome()
        let identities = try await connection.uidFetch(UIDSet(uids: uids.map { UInt32(clamping: $0) }), items: Self.identityItems)
        let fetched = identities.compactMap { attributes in
            ServerIdentity(attributes).map {
                Candidate(identity: $0, flags: Self.messageFlags(attributes.flags ?? []), arrival: attributes.internalDate ?? Date())
            }
        }
        let linked = try store.linkKnownMessages(fetched.map {
            MailStore.ServerMessage(fingerprint: $0.identity.fingerprint, messageID: $0.identity.messageID, uid: $0.uid)
        }, accountId: accountId, folderId: folderId)
        outcome.linked += linked.count
        let candidates = fetched.filter { !linked.contains($0.uid) }
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
                    outcome.failed += 1
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
                outcome.failed += 1
                log.record("UID \(candidate.uid): \(error); retried next sync", level: .warning)
            }
        }
        let summary = try store.ingest(incoming, accountId: accountId)
        outcome.added += summary.added
        outcome.linked += summary.linked
        return outcome
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
