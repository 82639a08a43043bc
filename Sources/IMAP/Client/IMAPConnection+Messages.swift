/// How UID STORE changes flags.
public enum StoreOperation: String, Sendable {
    case add = "+FLAGS"
    case remove = "-FLAGS"
    case replace = "FLAGS"
}

extension IMAPConnection {
    /// UID SEARCH; returns the UIDs in the order the server sent them (ascending with
    /// ESEARCH). When the server offers ESEARCH (RFC 4731) it is asked for `RETURN (ALL)`:
    /// the answer is a UID set (`1:10000`) instead of every number, which made a sync with
    /// nothing new parse two 50 KB lines per 10,000-message folder.
    public func uidSearch(_ key: SearchKey) async throws(IMAPError) -> [UInt32] {
        try key.check()
        let extended = supports(.esearch)
        let result = try await execute("UID SEARCH", claims: Self.isSearch) { command in
            command.raw(extended ? "UID SEARCH RETURN (ALL)" : "UID SEARCH")
            key.encode(into: &command)
        }
        var uids: [UInt32] = []
        for response in result.untagged {
            switch response {
            case .search(let found, _):
                uids += found
            case .esearch(let found):
                // Sequence numbers taken for UIDs would make the sync drop the wrong messages.
                guard found.uid else { throw .protocolViolation("ESEARCH answer without UID to a UID SEARCH") }
                guard let all = found.all else { continue }
                guard let expanded = all.expanded(limit: Self.maxSearchResults) else {
                    throw .protocolViolation("ESEARCH result of \(all.count) UIDs")
                }
                uids += expanded
            default:
                continue
            }
        }
        return uids
    }

    /// More UIDs than a mailbox can hold: a hostile `ALL 1:4294967295` must not allocate 16 GiB.
    static let maxSearchResults = 10_000_000

    /// UID FETCH of `items` (`UID` is added when missing), with `(CHANGEDSINCE n)` when
    /// asked (CONDSTORE required).
    ///
    /// Only FETCH responses for UIDs in `set` are returned, one per UID (several FETCHes
    /// of one UID are merged); any other FETCH is unsolicited and goes to `events`
    /// (docs/IMAP-QUIRKS.md §1.6). Note `n:*` with n above the highest UID matches that highest
    /// message on the server, which this filter then leaves out: nothing new.
    public func uidFetch(
        _ set: UIDSet, items: [FetchItem], changedSince: UInt64? = nil
    ) async throws(IMAPError) -> [FetchAttributes] {
        guard !set.isEmpty else { return [] }
        let itemList = FetchItem.list(items)
        try CommandText.requireLine(itemList, what: "fetch items")
        if changedSince != nil, !supports(.condStore) { throw .capabilityMissing(.condStore) }
        let result = try await execute("UID FETCH", claims: Self.fetches(in: set)) { command in
            command.raw("UID FETCH \(set) \(itemList)")
            if let changedSince { command.raw("(CHANGEDSINCE \(changedSince))") }
        }
        return FetchAttributes.mergedByUID(result.untagged)
    }

    /// UID FETCH of one body section (`BODY.PEEK[section]`) whose literal goes to `sink`
    /// piece by piece as it arrives, so memory stays at one network read whatever its size.
    /// Returns the message's FETCH attributes (the section reads empty when it was
    /// streamed); nil when the server sent none for `uid` (expunged meanwhile).
    public func uidFetch(
        _ uid: UInt32, section: BodySection, into sink: LiteralSink
    ) async throws(IMAPError) -> FetchAttributes? {
        let set = UIDSet(uids: [uid])
        let result = try await run("UID FETCH", claims: Self.fetches(in: set), configure: { $0.literalSink = sink }) {
            $0.raw("UID FETCH \(set) \(FetchItem.list([.uid, .bodyPeek(section)]))")
        }.requireOK()
        return FetchAttributes.mergedByUID(result.untagged).first
    }

    /// UID STORE; returns the flags the server reported for `set` (none with `silent`).
    @discardableResult
    public func uidStore(
        _ set: UIDSet, flags: [String], _ operation: StoreOperation, silent: Bool = true
    ) async throws(IMAPError) -> [FetchAttributes] {
        guard !set.isEmpty else { return [] }
        try CommandText.requireFlags(flags)
        let item = operation.rawValue + (silent ? ".SILENT" : "")
        let result = try await execute("UID STORE", claims: Self.fetches(in: set)) {
            $0.raw("UID STORE \(set) \(item) (\(flags.joined(separator: " ")))")
        }
        return FetchAttributes.mergedByUID(result.untagged)
    }

    /// Conditional UID STORE (CONDSTORE, RFC 7162 §3.2): only messages whose mod-sequence
    /// is still at most `unchangedSince` change; the others come back as `modified`. Not
    /// silent, so every stored message's new MODSEQ is reported.
    public func uidStore(
        _ set: UIDSet, flags: [String], _ operation: StoreOperation, unchangedSince: UInt64
    ) async throws(IMAPError) -> ConditionalStore {
        guard !set.isEmpty else { return ConditionalStore(modified: UIDSet(), modSeqs: [:]) }
        guard supports(.condStore) else { throw .capabilityMissing(.condStore) }
        try CommandText.requireFlags(flags)
        let result = try await execute("UID STORE", claims: Self.fetches(in: set)) {
            $0.raw("UID STORE \(set) (UNCHANGEDSINCE \(unchangedSince)) \(operation.rawValue) (\(flags.joined(separator: " ")))")
        }
        var modSeqs: [UInt32: UInt64] = [:]
        for attributes in FetchAttributes.mergedByUID(result.untagged) {
            if let uid = attributes.uid, let modSeq = attributes.modSeq { modSeqs[uid] = modSeq }
        }
        var modified = UIDSet()
        if case .other(let name, let text)? = result.state.code, name.uppercased() == "MODIFIED" {
            modified = text.flatMap(UIDSet.init) ?? UIDSet()
        }
        return ConditionalStore(modified: modified, modSeqs: modSeqs)
    }

    /// UID COPY; returns the UID mapping when the server sends COPYUID (UIDPLUS).
    @discardableResult
    public func uidCopy(_ set: UIDSet, to mailbox: String) async throws(IMAPError) -> CopiedUIDs? {
        guard !set.isEmpty else { return nil }
        let result = try await execute("UID COPY") { command in
            command.raw("UID COPY \(set)")
            command.string(mailbox)
        }
        return CopiedUIDs(result)
    }

    /// UID MOVE (RFC 6851). Without it a move is COPY, `\Deleted` and an expunge of just
    /// those messages: the write-back applier does that itself, as it must be resumable
    /// after a crash between the steps.
    @discardableResult
    public func uidMove(_ set: UIDSet, to mailbox: String) async throws(IMAPError) -> CopiedUIDs? {
        guard !set.isEmpty else { return nil }
        guard supports(.move) else { throw .capabilityMissing(.move) }
        let result = try await execute("UID MOVE", claims: CopiedUIDs.claims) { command in
            command.raw("UID MOVE \(set)")
            command.string(mailbox)
        }
        return CopiedUIDs(result)
    }

    /// UID EXPUNGE (UIDPLUS): removes only these UIDs' `\Deleted` messages.
    public func uidExpunge(_ set: UIDSet) async throws(IMAPError) {
        guard !set.isEmpty else { return }
        guard supports(.uidPlus) else { throw .capabilityMissing(.uidPlus) }
        _ = try await execute("UID EXPUNGE") { $0.raw("UID EXPUNGE \(set)") }
    }

    /// EXPUNGE: removes every `\Deleted` message of the mailbox, other clients' too.
    /// The EXPUNGE responses arrive on `events`.
    public func expunge() async throws(IMAPError) {
        _ = try await execute("EXPUNGE") { $0.raw("EXPUNGE") }
    }

    /// `set` cut into sets short enough for one command line (docs/IMAP-QUIRKS.md §3.5):
    /// about 1000 octets per command, or 8192 with CONDSTORE.
    public func commandSizedChunks(of set: UIDSet) -> [UIDSet] {
        set.chunked(maxOctets: supports(.condStore) ? UIDSet.condStoreCommandBudget : UIDSet.plainCommandBudget)
    }

    private static let isSearch: @Sendable (UntaggedResponse) -> Bool = {
        switch $0 {
        case .search, .esearch: true
        default: false
        }
    }

    private static func fetches(in set: UIDSet) -> @Sendable (UntaggedResponse) -> Bool {
        { response in
            guard case .fetch(_, let attributes) = response, let uid = attributes.uid else { return false }
            return set.contains(uid)
        }
    }
}

/// What a conditional STORE did.
public struct ConditionalStore: Sendable, Equatable {
    /// Messages another client changed after `UNCHANGEDSINCE`: left as the server has them.
    public var modified: UIDSet
    /// The mod-sequence each stored message has now.
    public var modSeqs: [UInt32: UInt64]

    public init(modified: UIDSet, modSeqs: [UInt32: UInt64]) {
        self.modified = modified
        self.modSeqs = modSeqs
    }
}
