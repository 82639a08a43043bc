import Foundation
import TestSupport
import Testing

/// Issue 42 points 1 and 5 on real servers: rm never expunges on an account whose Trash
/// mailfs cannot find, a Trash found by name or named in the config takes the message, and
/// a personal namespace prefix (`INBOX.`) is neither shown nor lost on mkdir.
///
/// The Dovecot tests run on Dovecot; the others on each kind that differs from it
/// (`IMAPServerKind.others`), failing where .ci/servers did not start one.
@Suite("Write-back: Trash and namespaces on each server", .serialized)
struct WriteBackTrashTests {
    typealias Server = WriteBack

    @Test("rm on an account with no Trash is refused with EPERM, said in .log, and nothing leaves the server")
    func refusedWithoutTrash() async throws {
        try await SharedServers.shared {
            let letter = Letter("No trash")
            let folder = Server.unique("NoTrash")
            try await Server.createMailbox("alice", folder)
            try await Server.append([letter], user: "alice", mailbox: folder)
            // A trash_folder the server does not have: the account has no Trash at all.
            let account = WriteBackAccount(trashFolder: Server.unique("missing"))
            let mount = try MountedMailfs.configured([account])
            try await mount.startAndWait(for: ["alice/\(folder)": [letter]])
            #expect(try await !mount.listing("alice").contains("trash"))

            let rm = try await mount.sh("rm 'alice/\(folder)/\(letter.fileName)'")
            #expect(rm.status != 0 && rm.output.contains("Operation not permitted"), "\(rm.output)")
            #expect(try await mount.listing("alice/\(folder)") == [letter.fileName])
            #expect(mount.text("alice/.log").contains("rm \(letter.fileName) refused"), "\(mount.text("alice/.log"))")
            #expect(mount.pendingChanges("alice") == 0)
            _ = try await mount.sh("echo sync > alice/.control")
            #expect(try await mount.waitForIdle("alice"))
            #expect(try await Server.locate(letter, user: "alice") == [folder])
        }
    }

    @Test("trash_folder names the Trash: rm moves the message there, not to the \\Trash folder")
    func configuredTrash() async throws {
        try await SharedServers.shared {
            let letter = Letter("To the bin")
            let (folder, bin) = (Server.unique("Keep"), Server.unique("Bin"))
            try await Server.createMailbox("alice", folder, bin)
            try await Server.append([letter], user: "alice", mailbox: folder)
            let mount = try MountedMailfs.configured([WriteBackAccount(trashFolder: bin)])
            try await mount.startAndWait(for: ["alice/\(folder)": [letter]])
            #expect(try await mount.waitForDirectory("alice/Trash (folder)"), "the \\Trash folder is an ordinary one now")

            let rm = try await mount.sh("rm 'alice/\(folder)/\(letter.fileName)'")
            #expect(rm.status == 0, "\(rm.output)")
            let moved = try await Server.waitUntil(letter, user: "alice", isIn: [bin])
            let places = await Server.places(letter, user: "alice")
            #expect(moved, "\(places)")
            #expect(try await mount.waitForFiles([letter.fileName], in: "alice/trash"))
        }
    }

    @Test("a server without SPECIAL-USE or with a prefix: roles by name, no INBOX (folder)/, rm to its Trash",
          arguments: IMAPServerKind.others)
    func trashByNameAndPrefix(kind: IMAPServerKind) async throws {
        try await kind.shared {
            let letter = Letter("Named trash \(kind.rawValue)")
            let (mount, folder) = try await MountedMailfs.aliceFolder("Work", holding: [letter], on: kind)
            // The folders show as discovery stores them; the account's listing follows the
            // store within the tree's quiet period, so it is polled, not read once.
            var top: [String] = []
            let listed = try await Poll.until(seconds: 15) {
                top = try await mount.listing("alice")
                return Set(["inbox", "sent", "drafts", "trash", "spam"]).isSubset(of: top)
            }
            #expect(listed, "\(top): \(mount.text("alice/.log"))")
            #expect(!top.contains { $0.hasPrefix("INBOX") }, "\(top)")

            let rm = try await mount.sh("rm 'alice/\(folder)/\(letter.fileName)'")
            #expect(rm.status == 0, "\(rm.output)")
            #expect(try await Server.waitUntil(letter, user: "alice", isIn: ["Trash"], on: kind), "\(mount.text("alice/.log"))")
        }
    }

    @Test("mkdir under a personal prefix creates the prefixed folder and its child; no display suffix reaches the server",
          arguments: IMAPServerKind.others)
    func mkdirUnderPrefix(kind: IMAPServerKind) async throws {
        try await kind.shared {
            let name = try kind.unique("Made")
            let mount = try MountedMailfs.configured([WriteBackAccount(kind: kind)])
            try await mount.start()
            #expect(try await mount.waitForIdle("alice"))
            let made = try await mount.sh("mkdir 'alice/\(name)' 'alice/\(name)/2026' 'alice/sent (folder)'")
            #expect(made.status == 0, "\(made.output)")
            let wanted = [name, "\(name)/2026", "sent"]
            #expect(try await Poll.until(seconds: 30) {
                var found = 0
                for mailbox in wanted where try await Server.exists("alice", mailbox, on: kind) { found += 1 }
                return found == wanted.count
            }, "\(mount.text("alice/.log"))")
            #expect(try await mount.waitForApplied("alice"), "\(mount.text("alice/.log"))")
            #expect(try await !Server.exists("alice", "sent (folder)", on: kind))
            _ = try await mount.sh("echo sync > alice/.control")
            #expect(try await mount.waitForIdle("alice"))
            #expect(try await mount.listing("alice/\(name)") == ["2026"])
        }
    }

    @Test("Courier: no Trash at all refuses rm; a Trash named Deleted Items takes it")
    func courierUsers() async throws {
        let kind = IMAPServerKind.courier
        try await kind.shared {
            for (user, expected) in [("notrash", nil), ("deleteditems", "Deleted Items")] as [(String, String?)] {
                let letter = Letter("Courier \(user)")
                let folder = try kind.unique("Box")
                try await Server.createMailbox(user, folder, on: kind)
                try await Server.append([letter], user: user, mailbox: folder, on: kind)
                let mount = try MountedMailfs.configured([WriteBackAccount(user: user, kind: kind)])
                try await mount.startAndWait(for: ["\(user)/\(folder)": [letter]], account: user)
                let rm = try await mount.sh("rm '\(user)/\(folder)/\(letter.fileName)'")
                if let expected {
                    #expect(rm.status == 0, "\(rm.output)")
                    #expect(try await Server.waitUntil(letter, user: user, isIn: [expected], on: kind))
                } else {
                    #expect(rm.status != 0 && rm.output.contains("Operation not permitted"), "\(rm.output)")
                    #expect(try await Server.locate(letter, user: user, on: kind) == [folder])
                }
                await mount.stop()
            }
        }
    }
}
