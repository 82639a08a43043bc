import Foundation
import TestSupport
import Testing

/// Write-back of folders: mkdir, rmdir and mv of directories of a real mount are CREATE,
/// DELETE and RENAME on every server of the matrix; special-use and virtual directories stay.
@Suite("Write-back: folders", .serialized)
struct WriteBackFolderTests {
    typealias Server = WriteBack

    @Test("mkdir creates a folder and a subfolder, mv renames it with its children, rmdir deletes empty ones",
          arguments: IMAPServerKind.allCases)
    func folderLifecycle(kind: IMAPServerKind) async throws {
        try await kind.shared {
            let mount = try MountedMailfs.configured([WriteBackAccount(kind: kind)])
            try await mount.start()
            #expect(try await mount.waitForIdle("alice"))
            let (name, renamed) = (try kind.unique("Receipts"), try kind.unique("Receipts-2026"))

            let made = try await mount.sh("mkdir 'alice/\(name)' && mkdir 'alice/\(name)/2026' && ls -A 'alice/\(name)'")
            #expect(made.status == 0 && made.lines == ["2026"], "\(made.output)")
            #expect(try await Poll.until(seconds: 15) { try await Server.existing("alice", [name, "\(name)/2026"], on: kind) == [true, true] },
                    "CREATE: \(mount.text("alice/.log"))")

            let mv = try await mount.sh("mv 'alice/\(name)' 'alice/\(renamed)' && ls -A 'alice/\(renamed)'")
            #expect(mv.status == 0 && mv.lines == ["2026"], "\(mv.output)")
            #expect(try await !mount.listing("alice").contains(name))
            #expect(try await Poll.until(seconds: 15) {
                try await Server.existing("alice", [renamed, "\(renamed)/2026", name], on: kind) == [true, true, false]
            }, "RENAME: \(mount.text("alice/.log"))")

            let rmdir = try await mount.sh("rmdir 'alice/\(renamed)/2026' && rmdir 'alice/\(renamed)'")
            #expect(rmdir.status == 0, "\(rmdir.output)")
            #expect(try await !mount.listing("alice").contains(renamed))
            #expect(try await Poll.until(seconds: 15) {
                try await Server.existing("alice", [renamed, "\(renamed)/2026"], on: kind) == [false, false]
            }, "DELETE: \(mount.text("alice/.log"))")
            #expect(try await mount.waitForApplied("alice"))
            #expect(try await !mount.listing("alice").contains(renamed), "a sync does not bring it back")
        }
    }

    /// A name this server refuses: Dovecot forbids `.` in names ([CANNOT]); on Cyrus with
    /// Debian's namespace and on Courier `.` is the delimiter (refused before any CREATE);
    /// Cyrus with `/` refuses `%` (a bare NO).
    static func refusedName(_ kind: IMAPServerKind) -> String {
        WriteBack.unique(kind == .cyrusalt ? "v9%9" : "v9.9")
    }

    @Test("mkdir and mv to a name the server refuses fail (EINVAL, EPERM), the reason in .log; nothing is retried or left",
          arguments: IMAPServerKind.allCases)
    func refusedNames(kind: IMAPServerKind) async throws {
        try await kind.shared {
            let mount = try MountedMailfs.configured([WriteBackAccount(kind: kind)])
            try await mount.start()
            #expect(try await mount.waitForIdle("alice"))
            let (refused, kept) = (Self.refusedName(kind), try kind.unique("Kept"))

            let mkdir = try await mount.sh("mkdir 'alice/\(refused)'")
            #expect(mkdir.status != 0 && mkdir.output.contains("Invalid argument"), "\(mkdir.output)\n\(mount.text("alice/.log"))")
            #expect(try await !mount.listing("alice").contains(refused))
            #expect(mount.text("alice/.log").contains(refused), "\(mount.text("alice/.log"))")

            let mv = try await mount.sh("mkdir 'alice/\(kept)' && mv 'alice/\(kept)' 'alice/\(refused)'")
            #expect(mv.status != 0 && mv.output.contains("Operation not permitted"), "\(mv.output)\n\(mount.text("alice/.log"))")
            let listing = try await mount.listing("alice")
            #expect(listing.contains(kept) && !listing.contains(refused), "\(listing)")
            #expect(mount.pendingChanges("alice") == 0, "a refused name is not retried")
            #expect(try await Server.existing("alice", [kept, refused], on: kind) == [true, false])
        }
    }

    @Test("rmdir of a folder with messages fails with ENOTEMPTY and changes nothing")
    func rmdirNotEmpty() async throws {
        try await SharedServers.shared {
            let folder = Server.unique("Full")
            let letter = Letter("Still here")
            try await Server.createMailbox("alice", folder)
            try await Server.append([letter], user: "alice", mailbox: folder)
            let mount = try MountedMailfs.configured([WriteBackAccount()])
            try await mount.startAndWait(for: ["alice/\(folder)": [letter]])
            let rmdir = try await mount.sh("rmdir 'alice/\(folder)'")
            #expect(rmdir.status != 0 && rmdir.output.contains("Directory not empty"), "\(rmdir.output)")
            #expect(try await mount.listing("alice/\(folder)") == [letter.fileName])
            #expect(mount.pendingChanges("alice") == 0)
            #expect(try await Server.locate(letter, user: "alice") == [folder])
        }
    }

    @Test("special-use folders and virtual directories cannot be removed or renamed (EPERM)",
          arguments: ["inbox", "sent", "drafts", "trash", "spam", "archive", "threads", "outbox", "attachments"])
    func specialDirectoriesStay(directory: String) async throws {
        try await SharedServers.shared {
            let mount = try MountedMailfs.configured([WriteBackAccount(user: "bob")])
            try await mount.start()
            #expect(try await mount.waitForIdle("bob"))
            #expect(try await mount.waitForDirectory("bob/\(directory)"))
            let rmdir = try await mount.sh("rmdir 'bob/\(directory)'")
            #expect(rmdir.status != 0 && rmdir.output.contains("Operation not permitted"), "\(rmdir.output)")
            let mv = try await mount.sh("mv 'bob/\(directory)' 'bob/\(directory)-renamed'")
            #expect(mv.status != 0 && mv.output.contains("Operation not permitted"), "\(mv.output)")
            let listed = try await mount.listing("bob")
            #expect(listed.contains(directory) && !listed.contains("\(directory)-renamed"))
            #expect(mount.pendingChanges("bob") == 0)
            for mailbox in ["INBOX", "Sent", "Drafts", "Trash", "Junk", "Archive"] {
                #expect(try await Server.exists("bob", mailbox), "\(mailbox) is still on the server")
            }
            #expect(try await !Server.exists("bob", "\(directory)-renamed"))
        }
    }
}
