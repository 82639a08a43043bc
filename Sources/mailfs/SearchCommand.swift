import ArgumentParser
import Foundation
import MailCore
import Store

struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Print the messages matching a query (notmuch's language), as paths in the mount.",
        discussion: """
            Reads the store, so it works with or without a running mount. Paths are under the \
            running mount of this store, else under --mount DIR, else relative to the mount \
            root (ACCOUNT/FOLDER/FILE): one line per folder that lists the message (archive/ \
            when none does). Exit status: 0 with results, 1 with none, 2 for a query mailfs \
            cannot read (the error points at the place).

            Queries: words and "phrases" (subject, addresses, text, attachment names), \
            from: to: subject: body: id: thread: folder: date:A..B (2026-10-01, 2026-10, \
            today, yesterday, 7d, 2w, 3M, 1y, open ranges) tag:/is:/has: unread|flagged|attachment \
            attachment: mimetype:, AND OR NOT -term ( ), word* for prefixes, * for everything.
            """)

    enum Output: String, ExpressibleByArgument, CaseIterable {
        case files, messages
    }

    @Argument(help: "The query; several arguments are joined with spaces, as notmuch does.")
    var query: [String]

    @Option(help: "Only this account.")
    var account: String?

    @Flag(help: "One JSON object per message: account, file, paths, messageId, subject, from, thread, date, unread, flagged.")
    var json = false

    @Option(help: "At most this many messages (oldest first).")
    var limit: Int?

    @Option(help: "files: paths in the mount; messages: id:MESSAGE-ID lines, as notmuch prints them.")
    var output: Output = .files

    @Option(help: "Print paths under this mount point.")
    var mount: String?

    @OptionGroup var location: LocationOptions

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() throws {
        let text = query.joined(separator: " ")
        let parsed: SearchQuery
        do {
            parsed = try SearchParser.parse(text)
        } catch {
            FileHandle.standardError.write(Data(Self.pointing(at: error, in: text).utf8))
            throw ExitCode(2)
        }
        try location.withStore { store in
            let names = Dictionary(uniqueKeysWithValues: try store.accounts().compactMap { record in record.id.map { ($0, record.name) } })
            var scope = SearchScope.everyAccount
            if let account {
                guard let id = names.first(where: { $0.value == account })?.key else {
                    FileHandle.standardError.write(Data("mailfs search: no account named \(account)\n".utf8))
                    throw ExitCode(2)
                }
                scope = .account(id)
            }
            let messages = try store.tree.messages(matching: parsed, in: scope, limit: limit)
            guard !messages.isEmpty else { throw ExitCode(1) }
            let results = SearchResults(messages: messages, details: try store.tree.searchDetails(emailIds: messages.map(\.id)),
                                        accountNames: names, root: mount ?? LiveMount.mountPoint(of: store))
            print(json ? try results.json() : output == .files ? results.paths() : results.messageIDs(), terminator: "")
        }
    }

    /// The error, then the query with a caret under the place it names.
    static func pointing(at error: SearchQueryError, in query: String) -> String {
        // A tab or newline in the query would shift the caret: shown as a space.
        let line = query.map { $0.isWhitespace || $0.unicodeScalars.contains { $0.value < 0x20 } ? " " : $0 }
        return "mailfs search: bad query \(error)\n  \(String(line))\n  \(String(repeating: " ", count: min(error.offset, line.count)))^\n"
    }
}
