extension IMAPConnection {
    /// LIST, with `RETURN (SPECIAL-USE)` when the server supports RFC 6154 so that
    /// `\Sent`, `\Trash`, `\All`… come with the names. Names stay raw (modified UTF-7);
    /// decode them with `ModifiedUTF7.decode` for display, send them back as they are.
    public func list(reference: String = "", pattern: String = "*") async throws(IMAPError) -> [MailboxListEntry] {
        let specialUse = supports(.specialUse)
        let result = try await execute("LIST", claims: { if case .list = $0 { true } else { false } }) { command in
            command.raw("LIST")
            command.string(reference)
            command.string(pattern)
            if specialUse { command.raw("RETURN (SPECIAL-USE)") }
        }
        return result.untagged.compactMap { response -> MailboxListEntry? in
            if case .list(let entry) = response { entry } else { nil }
        }
    }

    /// The hierarchy delimiter from a plain `LIST "" ""` (RFC 3501 §6.3.8). Plain: Cyrus
    /// answers the same request with `RETURN (SPECIAL-USE)` with no LIST line at all. Nil
    /// when the server sent none or NIL (a flat namespace).
    public func hierarchyDelimiter() async throws(IMAPError) -> Character? {
        let result = try await execute("LIST", claims: { if case .list = $0 { true } else { false } }) { command in
            command.raw("LIST")
            command.string("")
            command.string("")
        }
        return result.untagged.lazy.compactMap { response -> Character? in
            if case .list(let entry) = response { entry.delimiter } else { nil }
        }.first
    }

    /// NAMESPACE (RFC 2342); nil when the server does not offer it or sent no answer.
    public func namespace() async throws(IMAPError) -> NamespaceResponse? {
        guard supports(.namespace) else { return nil }
        let result = try await execute("NAMESPACE", claims: { if case .namespace = $0 { true } else { false } }) {
            $0.raw("NAMESPACE")
        }
        return result.untagged.lazy.compactMap { response -> NamespaceResponse? in
            if case .namespace(let namespaces) = response { namespaces } else { nil }
        }.first
    }

    /// SELECT a mailbox by its raw name, with `(CONDSTORE)` when the server offers it so
    /// HIGHESTMODSEQ is reported. A failed SELECT leaves no mailbox selected.
    public func select(_ mailbox: String) async throws(IMAPError) -> SelectedMailbox {
        try await open(mailbox, command: "SELECT", readOnly: false)
    }

    /// EXAMINE: SELECT without the right to change anything (`\Recent` is kept too).
    public func examine(_ mailbox: String) async throws(IMAPError) -> SelectedMailbox {
        try await open(mailbox, command: "EXAMINE", readOnly: true)
    }

    /// ENABLE (RFC 5161), e.g. `["CONDSTORE"]`; returns what the server enabled.
    @discardableResult
    public func enable(_ extensions: [String]) async throws(IMAPError) -> [String] {
        guard !extensions.isEmpty else { return [] }
        try CommandText.requireAtoms(extensions, what: "extension name")
        let result = try await execute("ENABLE", claims: { if case .enabled = $0 { true } else { false } }) {
            $0.raw("ENABLE " + extensions.joined(separator: " "))
        }
        return result.untagged.flatMap { response -> [String] in
            if case .enabled(let names) = response { names } else { [] }
        }
    }

    /// NOOP: lets the server report news, which arrives on `events`.
    public func noop() async throws(IMAPError) {
        _ = try await execute("NOOP") { $0.raw("NOOP") }
    }

    private func open(_ mailbox: String, command name: String, readOnly: Bool) async throws(IMAPError) -> SelectedMailbox {
        let condStore = supports(.condStore)
        // RFC 3501 §6.3.1: a failed SELECT or EXAMINE leaves no mailbox selected.
        selection = nil
        let result = try await execute(name, claims: SelectedMailbox.claims) { command in
            command.raw(name)
            command.string(mailbox)
            if condStore { command.raw("(CONDSTORE)") }
        }
        let selected = SelectedMailbox(name: mailbox, readOnlyCommand: readOnly, condStore: condStore, result: result)
        selection = MailboxSelection(name: mailbox, readOnly: selected.readOnly)
        return selected
    }

    /// Closes `mailbox` when it is the one open on this connection, without expunging
    /// anything (`MailboxSelection` says how and why).
    func leave(_ mailbox: String) async throws(IMAPError) {
        switch MailboxSelection.departure(from: selection, before: mailbox, canUnselect: supports(.unselect)) {
        case .none:
            return
        case .unselect:
            _ = try await execute("UNSELECT") { $0.raw("UNSELECT") }
        case .close:
            _ = try await execute("CLOSE") { $0.raw("CLOSE") }
        case .examineThenClose:
            // A server that calls its EXAMINE read-write gets no CLOSE: the command then
            // goes to the open mailbox as it would have, and nothing is expunged.
            guard try await examine(mailbox).readOnly else { return }
            _ = try await execute("CLOSE") { $0.raw("CLOSE") }
        }
        selection = nil
    }
}

/// CREATE, DELETE and RENAME of mailboxes, by raw (modified UTF-7) names. DELETE and
/// RENAME first close the mailbox if it is open here (`MailboxSelection`).
extension IMAPConnection {
    public func create(_ mailbox: String) async throws(IMAPError) {
        _ = try await execute("CREATE") { command in
            command.raw("CREATE")
            command.string(mailbox)
        }
    }

    public func delete(_ mailbox: String) async throws(IMAPError) {
        try await leave(mailbox)
        _ = try await execute("DELETE") { command in
            command.raw("DELETE")
            command.string(mailbox)
        }
    }

    public func rename(_ mailbox: String, to newName: String) async throws(IMAPError) {
        try await leave(mailbox)
        _ = try await execute("RENAME") { command in
            command.raw("RENAME")
            command.string(mailbox)
            command.string(newName)
        }
    }
}
