import ArgumentParser
import Foundation
import Config
import Import
import Store

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a Maildir, an mbox file, or a folder of them into an offline account.",
        discussion: """
            A Maildir root becomes the account's inbox and its Maildir++ subfolders (.Sent, \
            .Work.Reports) become folders; an mbox file becomes a folder named after the file \
            (INBOX.mbox -> inbox); a directory is searched for both. Messages are the same \
            only when their bytes are: two messages sharing a Message-ID are both imported, an \
            exact copy is stored once (linked when it sits in another folder), so running it \
            again adds nothing twice. The account appears in the mount beside the configured ones.
            """)

    @Argument(help: "Account name: the directory the account gets in the mount.")
    var account: String

    @Argument(help: "A Maildir, an mbox file, or a directory holding them.")
    var path: String

    @Option(help: "Import a single mailbox into this folder instead of its own name.")
    var folder: String?

    @Option(help: "The account's own address (shown in .status).")
    var address: String = ""

    @OptionGroup var location: LocationOptions

    func run() throws {
        if let problem = AccountName.problem(with: account) {
            throw CleanExit.failure("account name \"\(account)\": \(problem)")
        }
        let started = Date()
        let report = try location.withStore { store in
            do {
                return try MailboxImporter(store: store.importer).importMail(
                    from: URL(fileURLWithPath: path), account: account, address: address, folder: folder)
            } catch let error as MailboxImporter.ImportError {
                throw CleanExit.failure(error.description)
            }
        }
        let seconds = Date().timeIntervalSince(started)
        let s = report.summary
        print("\(account): \(s.added) added, \(s.linked) linked to another folder, "
              + "\(s.alreadyPresent) already present, in \(report.folders.count) folders "
              + String(format: "(%.1f s)", seconds))
        for skipped in report.skipped { print("skipped: \(skipped)") }
    }
}
