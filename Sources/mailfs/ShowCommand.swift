import ArgumentParser
import Foundation
import MessageText

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print messages as readable text: decoded, HTML rendered, attachments listed.",
        discussion: """
            PATH is a message file (.eml, in a mount or anywhere), a directory (its .eml \
            files, oldest first; a thread directory of a mount as one conversation, as its \
            conversation.txt), or - to read one message from stdin, as a display filter of \
            mutt or aerc. Nothing is fetched: links are listed, images and tracking pixels \
            are not loaded. Exit status 1 when a PATH cannot be read (the others are still \
            shown).

            Example: mailfs show ~/Mail/work/inbox/*Lunch*.eml
            """)

    @Argument(help: "Message files, directories, or - for stdin.")
    var paths: [String]

    func run() throws {
        var failed = false
        for (index, path) in paths.enumerated() {
            do {
                if index > 0 { Self.write("\n") }
                try MessageFiles.show(path, write: Self.write)
            } catch {
                FileHandle.standardError.write(Data("mailfs show: \(error)\n".utf8))
                failed = true
            }
        }
        if failed { throw ExitCode.failure }
    }

    private static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
