import Foundation
import TestSupport
import Testing

/// Issue 42, defect 2 (FR-SYNC-10) on a server whose All Mail behaves like Gmail's: the test
/// Dovecot's gmailv, whose `[Gmail]/All Mail` is a view over every folder but Trash and Spam
/// (.ci/servers/README.md, "gmailv"). A message lives only while some folder holds it, so an
/// archive that only expunges from INBOX loses the message; one that copies it to All Mail
/// first keeps it (All Mail saves the copy into a store no LIST shows).
@Suite("Gmail archive on an All Mail that holds only what some folder holds", .serialized)
struct GmailArchiveTests {
    typealias Server = WriteBack
    static let user = "gmailv"
    static let allMail = "[Gmail]/All Mail"

    @Test("mv inbox/X archive/ leaves the message in All Mail and nowhere else; the account shows no extra folder for All Mail's store")
    func archiveKeepsTheMessage() async throws {
        try await SharedServers.shared {
            let letter = Letter("Gmail archive kept")
            try await Server.append([letter], user: Self.user, mailbox: "INBOX")
            try await expect(Server.locate(letter, user: Self.user) == ["INBOX", Self.allMail],
                             orExplain: { "seeded into INBOX, shown by All Mail: \(await Server.places(letter, user: Self.user))" })
            let mount = try MountedMailfs.configured([WriteBackAccount(user: Self.user)])
            try await mount.startAndWait(for: ["gmailv/inbox": [letter]], account: Self.user)
            let entries = try await mount.listing("gmailv")
            #expect(!entries.contains { $0.localizedCaseInsensitiveContains("All Mail") || $0.localizedCaseInsensitiveContains("AllMailStore") },
                    "no folder for All Mail or its store: \(entries)")

            let mv = try await mount.sh("mv 'gmailv/inbox/\(letter.fileName)' gmailv/archive/ && ls -A gmailv/inbox")
            #expect(mv.status == 0 && !mv.lines.contains(letter.fileName), "\(mv.output)")
            #expect(try await mount.waitForFiles([letter.fileName], in: "gmailv/archive", seconds: 10), "listed in archive/")
            try await expect(mount.waitForApplied(Self.user), orExplain: { "\(mount.text("gmailv/.status"))" })
            let places = try await Server.locate(letter, user: Self.user)
            await expect(places == [Self.allMail], orExplain: {
                places.isEmpty
                    ? "the message is lost: expunged from INBOX without a copy in All Mail. \(mount.text("gmailv/.log"))"
                    : "in \(places), not in All Mail only. \(mount.text("gmailv/.log"))"
            })
        }
    }

    @Test("an archive cut after the COPY (failpoint) is finished after remount: the message stays in All Mail, out of INBOX")
    func archiveCutAfterCopy() async throws {
        try await SharedServers.shared {
            let letter = Letter("Gmail archive cut")
            try await Server.append([letter], user: Self.user, mailbox: "INBOX")
            let mount = try MountedMailfs.configured([WriteBackAccount(user: Self.user)])
            try await mount.start(extraArguments: ["--crash-at", "writeback-after-archive-copy"])
            #expect(try await mount.waitForIdle(Self.user))
            #expect(try await mount.waitForFiles([letter.fileName], in: "gmailv/inbox"))

            #expect(try await mount.sh("mv 'gmailv/inbox/\(letter.fileName)' gmailv/archive/").status == 0)
            #expect(try await Poll.until(seconds: 30) { mount.process?.isRunning == false },
                    "the failpoint ends the mount after the COPY: \(mount.text("gmailv/.log"))")
            #expect(try await Server.locate(letter, user: Self.user).contains("INBOX"), "copied, not expunged yet")
            await mount.crash()
            try await mount.start()
            try await expect(mount.waitForApplied(Self.user), orExplain: { "\(mount.text("gmailv/.status"))" })
            // The replay copies again (a search of this All Mail would find the INBOX copy):
            // on this view two stored copies show, on Gmail one message.
            let places = try await Server.locate(letter, user: Self.user)
            #expect(!places.isEmpty && places.allSatisfy { $0 == Self.allMail }, "in All Mail only: \(places) \(mount.text("gmailv/.log"))")
            #expect(try await mount.listing("gmailv/archive").contains(letter.fileName))
        }
    }

    @Test("mv archive/X label/ after an archive labels the message again: it is in the label, out of archive/")
    func unarchiveLabelsTheMessage() async throws {
        try await SharedServers.shared {
            let label = Server.unique("Gmailv-label")
            let letter = Letter("Gmail unarchived")
            try await Server.createMailbox(Self.user, label)
            try await Server.append([letter], user: Self.user, mailbox: "INBOX")
            let mount = try MountedMailfs.configured([WriteBackAccount(user: Self.user)])
            try await mount.startAndWait(for: ["gmailv/inbox": [letter]], account: Self.user)
            #expect(try await mount.waitForDirectory("gmailv/\(label)"))

            let archive = try await mount.sh("mv 'gmailv/inbox/\(letter.fileName)' gmailv/archive/")
            #expect(archive.status == 0, "\(archive.output)")
            #expect(try await mount.waitForFiles([letter.fileName], in: "gmailv/archive", seconds: 10))
            try await expect(mount.waitForApplied(Self.user), orExplain: { "\(mount.text("gmailv/.status"))" })
            let archived = try await Server.locate(letter, user: Self.user)
            try #require(archived == [Self.allMail], "archived first, in All Mail only: \(archived) \(mount.text("gmailv/.log"))")

            let back = try await mount.sh("mv 'gmailv/archive/\(letter.fileName)' 'gmailv/\(label)/'")
            #expect(back.status == 0, "\(back.output)")
            try await expect(mount.waitForApplied(Self.user), orExplain: { "\(mount.text("gmailv/.status"))" })
            // All Mail shows a message once per copy (the archived one and the label's).
            let places = try await Server.locate(letter, user: Self.user)
            await expect(places.contains(label) && places.contains(Self.allMail) && !places.contains("INBOX"),
                         orExplain: { "copied from All Mail to the label: \(places) \(mount.text("gmailv/.log"))" })
            #expect(try await mount.listing("gmailv/\(label)").contains(letter.fileName))
            #expect(try await !mount.listing("gmailv/archive").contains(letter.fileName))
        }
    }

    @Test("rm in inbox/ of a message in INBOX and a label: it ends in [Gmail]/Trash only, out of the label and of All Mail")
    func rmLeavesTrashOnly() async throws {
        try await SharedServers.shared {
            let label = Server.unique("Gmailv-label")
            let letter = Letter("Gmail removed")
            try await Server.createMailbox(Self.user, label)
            try await Server.append([letter], user: Self.user, mailbox: "INBOX")
            try await Server.append([letter], user: Self.user, mailbox: label)
            let mount = try MountedMailfs.configured([WriteBackAccount(user: Self.user)])
            try await mount.startAndWait(for: ["gmailv/inbox": [letter], "gmailv/\(label)": [letter]], account: Self.user)

            let rm = try await mount.sh("rm 'gmailv/inbox/\(letter.fileName)' && ls -A gmailv/inbox")
            #expect(rm.status == 0 && !rm.lines.contains(letter.fileName), "\(rm.output)")
            #expect(try await mount.waitForFiles([letter.fileName], in: "gmailv/trash", seconds: 10))
            try await expect(mount.waitForApplied(Self.user), orExplain: { "\(mount.text("gmailv/.status"))" })
            let places = try await Server.locate(letter, user: Self.user)
            await expect(places == ["[Gmail]/Trash"], orExplain: { "\(places): \(mount.text("gmailv/.log"))" })
            #expect(try await !mount.listing("gmailv/\(label)").contains(letter.fileName))
        }
    }
}
