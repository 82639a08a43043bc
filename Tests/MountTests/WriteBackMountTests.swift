import Foundation
import TestSupport
import Testing

/// Write-back (issue 9, docs/REQUIREMENTS.md §C4): flags, rm, mv, cp and folders in a real
/// mount change the mail on the test servers, checked by a second client (seed.py): the
/// tests taking a kind on every server of the matrix, the Gmail and no-MOVE ones on
/// Dovecot. Each test has its own folders and messages, so the suites share the servers.
@Suite("Write-back: flags, rm, mv and cp", .serialized)
struct WriteBackMountTests {
    typealias Server = WriteBack

    @Test("setfattr seen/flagged shows at once, reaches the server in every folder that holds the message, pending until then",
          arguments: IMAPServerKind.allCases)
    func flags(kind: IMAPServerKind) async throws {
        try await kind.shared {
            let (first, second) = (try kind.unique("Flags"), try kind.unique("Flags-copy"))
            let letter = Letter("Flagged")
            try await Server.createMailbox("alice", first, second, on: kind)
            try await Server.append([letter], user: "alice", mailbox: first, on: kind)
            try await Server.append([letter], user: "alice", mailbox: second, on: kind)
            let mount = try MountedMailfs.configured([WriteBackAccount(kind: kind)])
            try await mount.startAndWait(for: ["alice/\(first)": [letter], "alice/\(second)": [letter]])
            let file = "alice/\(first)/\(letter.fileName)"
            let other = "alice/\(second)/\(letter.fileName)"
            #expect(mount.xattr("user.mailfs.pending", of: file) == "0")

            let set = try await mount.sh("setfattr -n user.mailfs.seen -v 1 '\(file)' && getfattr --only-values -n user.mailfs.seen '\(file)'"
                                   + " && echo && getfattr --only-values -n user.mailfs.pending '\(file)'")
            #expect(set.status == 0, "\(set.output)")
            #expect(set.lines.first == "1", "the local value at once: \(set.output)")
            #expect(["0", "1"].contains(set.lines.last ?? ""), "pending is 0 or 1: \(set.output)")
            #expect(mount.xattr("user.mailfs.seen", of: other) == "1", "one message, one value in every folder")
            for mailbox in [first, second] {
                #expect(try await Poll.until(seconds: 15) {
                    try await Server.message(letter, user: "alice", mailbox: mailbox, on: kind)?.flags.contains("\\Seen") == true
                }, "\\Seen in \(mailbox): \(mount.text("alice/.log"))")
            }
            #expect(try await Poll.until(seconds: 10) { mount.xattr("user.mailfs.pending", of: file) == "0" })
            #expect(try await mount.waitForApplied("alice"), "\(mount.text("alice/.status"))")

            #expect(try await mount.sh("setfattr -n user.mailfs.flagged -v 1 '\(other)'").status == 0)
            #expect(mount.xattr("user.mailfs.flagged", of: file) == "1")
            for mailbox in [first, second] {
                #expect(try await Poll.until(seconds: 15) {
                    try await Server.message(letter, user: "alice", mailbox: mailbox, on: kind)?.flags.contains("\\Flagged") == true
                }, "\\Flagged in \(mailbox)")
            }
            let cleared = try await mount.sh("setfattr -n user.mailfs.seen -v 0 '\(file)' && setfattr -n user.mailfs.flagged -v 0 '\(file)'")
            #expect(cleared.status == 0, "\(cleared.output)")
            #expect(mount.xattr("user.mailfs.seen", of: file) == "0")
            for mailbox in [first, second] {
                try await expect(Poll.until(seconds: 15) {
                    guard let flags = try await Server.message(letter, user: "alice", mailbox: mailbox, on: kind)?.flags else { return false }
                    return !flags.contains("\\Seen") && !flags.contains("\\Flagged")
                }, orExplain: { "both flags removed in \(mailbox): \(String(describing: try? await Server.list("alice", mailbox, on: kind)))" })
            }
            #expect(try await Poll.until(seconds: 10) { mount.xattr("user.mailfs.pending", of: file) == "0" })
        }
    }

    @Test("a flag changed on the server by another client shows after echo sync (the server wins)",
          arguments: IMAPServerKind.allCases)
    func serverWins(kind: IMAPServerKind) async throws {
        try await kind.shared {
            let letter = Letter("Flagged elsewhere")
            let (mount, folder) = try await MountedMailfs.aliceFolder("Server-flags", holding: [letter], on: kind)
            let file = "alice/\(folder)/\(letter.fileName)"
            #expect(mount.xattr("user.mailfs.flagged", of: file) == "0")

            #expect(try await Server.seed(["flag", "--user", "alice", "--mailbox", folder, "--message-id", letter.messageID,
                                     "--add", "\\Flagged \\Seen"], on: kind).status == 0)
            #expect(try await mount.sh("echo sync > alice/.control").status == 0)
            #expect(try await Poll.until(seconds: 20) {
                mount.xattr("user.mailfs.flagged", of: file) == "1" && mount.xattr("user.mailfs.seen", of: file) == "1"
            }, "\(mount.text("alice/.log"))")

            #expect(try await Server.seed(["flag", "--user", "alice", "--mailbox", folder, "--message-id", letter.messageID,
                                     "--remove", "\\Flagged"], on: kind).status == 0)
            #expect(try await mount.sh("echo sync > alice/.control").status == 0)
            #expect(try await Poll.until(seconds: 20) { mount.xattr("user.mailfs.flagged", of: file) == "0" })
            #expect(mount.xattr("user.mailfs.seen", of: file) == "1")
            #expect(mount.xattr("user.mailfs.pending", of: file) == "0")
        }
    }

    @Test("syncs that run while local flag changes are pending never undo them")
    func pendingFlagsSurviveSync() async throws {
        try await SharedServers.shared {
            let letters = Letter.many("Pending", 20)
            let (mount, folder) = try await MountedMailfs.aliceFolder("Pending-flags", holding: letters)
            let dir = "alice/\(folder)"
            let set = try await mount.sh("for f in '\(dir)'/*.eml; do setfattr -n user.mailfs.seen -v 1 \"$f\" || exit 1; "
                                   + "echo sync > alice/.control; done")
            #expect(set.status == 0, "\(set.output)")
            // Every reading, from the change until the server has it, says 1.
            var readings = 0
            let applied = try await Poll.until(seconds: 30) {
                _ = try await mount.sh("echo sync > alice/.control")
                let values = try await mount.sh("for f in '\(dir)'/*.eml; do getfattr --only-values -n user.mailfs.seen \"$f\"; echo; done").lines
                readings += 1
                #expect(values == Array(repeating: "1", count: letters.count), "reading \(readings): \(values)")
                let server = try await Server.list("alice", folder) ?? []
                return server.count == letters.count && server.allSatisfy { $0.flags.contains("\\Seen") }
            }
            #expect(applied, "all \\Seen on the server: \(mount.text("alice/.log"))")
            #expect(try await mount.waitForApplied("alice"))
            let values = try await mount.sh("echo sync > alice/.control; for f in '\(dir)'/*.eml; do getfattr --only-values -n user.mailfs.seen \"$f\"; echo; done").lines
            #expect(values == Array(repeating: "1", count: letters.count))
        }
    }

    @Test("rm in a folder moves the message to Trash: gone from the listing at once, in trash/ under the same name",
          arguments: IMAPServerKind.allCases, ["custom", "INBOX", "Sent", "Drafts"])
    func rmMovesToTrash(kind: IMAPServerKind, mailbox role: String) async throws {
        try await kind.shared {
            let mailbox = try role == "custom" ? kind.unique("Rm") : role
            let directory = "alice/" + (role == "custom" ? mailbox : role.lowercased())
            let (removed, kept) = (Letter("Removed from \(role)"), Letter("Kept in \(role)"))
            if role == "custom" { try await Server.createMailbox("alice", mailbox, on: kind) }
            try await Server.append([removed, kept], user: "alice", mailbox: mailbox, on: kind)
            let mount = try MountedMailfs.configured([WriteBackAccount(kind: kind)])
            try await mount.startAndWait(for: [directory: [removed, kept]])

            let rm = try await mount.sh("rm '\(directory)/\(removed.fileName)' && ls -A '\(directory)'")
            #expect(rm.status == 0, "\(rm.output)")
            #expect(!rm.lines.contains(removed.fileName) && rm.lines.contains(kept.fileName), "\(rm.output)")
            #expect(try await mount.waitForFiles([removed.fileName], in: "alice/trash", seconds: 5), "same name in trash/")
            try await expect(Server.waitUntil(removed, user: "alice", isIn: ["Trash"], on: kind), orExplain: { "\(await Server.places(removed, user: "alice", on: kind)): \(mount.text("alice/.log"))" })
            #expect(try await Server.locate(kept, user: "alice", on: kind) == [mailbox])
            #expect(try await mount.waitForApplied("alice"))
            #expect(try await !mount.listing(directory).contains(removed.fileName), "a sync does not bring it back")
        }
    }

    @Test("rm in trash/ and spam/ deletes for good", arguments: IMAPServerKind.allCases)
    func rmInTrashAndSpam(kind: IMAPServerKind) async throws {
        try await kind.shared {
            let folder = try kind.unique("Rm-twice")
            let (twice, trashed, junk) = (Letter("Removed twice"), Letter("Already in Trash"), Letter("Spam"))
            try await Server.createMailbox("alice", folder, on: kind)
            try await Server.append([twice], user: "alice", mailbox: folder, on: kind)
            try await Server.append([trashed], user: "alice", mailbox: "Trash", on: kind)
            try await Server.append([junk], user: "alice", mailbox: "Junk", on: kind)
            let mount = try MountedMailfs.configured([WriteBackAccount(kind: kind)])
            try await mount.startAndWait(for: ["alice/\(folder)": [twice], "alice/trash": [trashed], "alice/spam": [junk]])

            let rm = try await mount.sh("rm 'alice/trash/\(trashed.fileName)' 'alice/spam/\(junk.fileName)' && ls -A alice/trash alice/spam")
            #expect(rm.status == 0, "\(rm.output)")
            #expect(!rm.lines.contains(trashed.fileName) && !rm.lines.contains(junk.fileName), "\(rm.output)")
            try await expect(Server.waitUntil(trashed, user: "alice", isIn: [], on: kind), orExplain: { "\(await Server.places(trashed, user: "alice", on: kind))" })
            try await expect(Server.waitUntil(junk, user: "alice", isIn: [], on: kind), orExplain: { "\(await Server.places(junk, user: "alice", on: kind))" })

            #expect(try await mount.sh("rm 'alice/\(folder)/\(twice.fileName)'").status == 0)
            #expect(try await Server.waitUntil(twice, user: "alice", isIn: ["Trash"], on: kind))
            #expect(try await mount.waitForFiles([twice.fileName], in: "alice/trash", seconds: 10))
            #expect(try await mount.sh("rm 'alice/trash/\(twice.fileName)'").status == 0)
            try await expect(Server.waitUntil(twice, user: "alice", isIn: [], on: kind), orExplain: { "\(await Server.places(twice, user: "alice", on: kind))" })
            #expect(try await !mount.listing("alice/trash").contains(twice.fileName))
        }
    }

    @Test("Gmail: rm in inbox/ puts the message in [Gmail]/Trash and takes it out of every label folder")
    func gmailRm() async throws {
        try await SharedServers.shared {
            let label = Server.unique("Label")
            let letter = Letter("Gmail trash")
            try await Server.createMailbox("gmail", label)
            for mailbox in ["INBOX", label, "[Gmail]/All Mail"] {
                try await Server.append([letter], user: "gmail", mailbox: mailbox)
            }
            let mount = try MountedMailfs.configured([WriteBackAccount(user: "gmail")])
            try await mount.startAndWait(for: ["gmail/inbox": [letter], "gmail/\(label)": [letter]], account: "gmail")

            let rm = try await mount.sh("rm 'gmail/inbox/\(letter.fileName)' && ls -A gmail/inbox")
            #expect(rm.status == 0 && !rm.lines.contains(letter.fileName), "\(rm.output)")
            #expect(try await Poll.until(seconds: 10) { try await !mount.listing("gmail/\(label)").contains(letter.fileName) },
                    "it leaves every folder of the tree")
            #expect(try await mount.waitForFiles([letter.fileName], in: "gmail/trash", seconds: 10))
            try await expect(Poll.until(seconds: 30) {
                let places = try await Server.locate(letter, user: "gmail")
                return places.contains("[Gmail]/Trash") && !places.contains("INBOX") && !places.contains(label)
            }, orExplain: { "\(await Server.places(letter, user: "gmail")): \(mount.text("gmail/.log"))" })
        }
    }

    @Test("mv between folders moves on the server (UID MOVE, or COPY and EXPUNGE without MOVE), same name, same inode",
          arguments: IMAPServerKind.allCases)
    func mvBetweenFolders(kind: IMAPServerKind) async throws {
        try await kind.shared {
            let (source, target) = (try kind.unique("Mv-from"), try kind.unique("Mv-to"))
            let letter = Letter("Moved")
            try await Server.createMailbox("alice", source, target, on: kind)
            try await Server.append([letter], user: "alice", mailbox: source, on: kind)
            let mount = try MountedMailfs.configured([WriteBackAccount(kind: kind)])
            try await mount.startAndWait(for: ["alice/\(source)": [letter]])
            #expect(try await mount.waitForDirectory("alice/\(target)"))
            let inode = try await mount.inode("alice/\(source)/\(letter.fileName)")

            let mv = try await mount.sh("mv 'alice/\(source)/\(letter.fileName)' 'alice/\(target)/' && ls -A 'alice/\(source)'"
                                  + " && echo --- && ls -A 'alice/\(target)'")
            #expect(mv.status == 0, "\(mv.output)")
            #expect(mv.lines == ["---", letter.fileName], "\(mv.output)")
            #expect(try await mount.inode("alice/\(target)/\(letter.fileName)") == inode)
            try await expect(Server.waitUntil(letter, user: "alice", isIn: [target], on: kind), orExplain: { "\(await Server.places(letter, user: "alice", on: kind)): \(mount.text("alice/.log"))" })
            #expect(try await mount.waitForApplied("alice"))
            #expect(try await mount.listing("alice/\(target)") == [letter.fileName])
        }
    }

    @Test("on a server without MOVE, mv copies, marks and UID EXPUNGEs that one UID: another client's \\Deleted message stays")
    func mvWithoutMove() async throws {
        try await SharedServers.shared {
            let (source, target) = (Server.unique("NoMove-from"), Server.unique("NoMove-to"))
            let (letter, others) = (Letter("Moved by copy"), Letter("Deleted by another client"))
            try await Server.createMailbox("alice", source, target)
            try await Server.append([letter], user: "alice", mailbox: source)
            try await Server.append([others], user: "alice", mailbox: source, flags: "\\Deleted")
            let mount = try MountedMailfs.configured([WriteBackAccount(imapPort: try Server.noMovePort)])
            try await mount.startAndWait(for: ["alice/\(source)": [letter]])
            #expect(try await mount.waitForDirectory("alice/\(target)"))

            let mv = try await mount.sh("mv 'alice/\(source)/\(letter.fileName)' 'alice/\(target)/'")
            #expect(mv.status == 0, "\(mv.output)")
            try await expect(Server.waitUntil(letter, user: "alice", isIn: [target]), orExplain: { "\(await Server.places(letter, user: "alice")): \(mount.text("alice/.log"))" })
            let survivor = try await Server.message(others, user: "alice", mailbox: source)
            #expect(survivor?.flags.contains("\\Deleted") == true, "the other client's message: \(String(describing: survivor))")
            // Dovecot writes a session's rawlog out when the session ends.
            await mount.stop()
            let quotedTarget = "\"\(target.uppercased())\""
            let isCopy: ([String]) -> Bool = { $0.count == 4 && $0[0] == "UID" && $0[1] == "COPY" && $0[3] == quotedTarget }
            var session: [[String]] = []
            #expect(try await Poll.until(seconds: 10) {
                session = try Server.noMoveSessions("alice").first { $0.contains(where: isCopy) } ?? []
                return !session.isEmpty
            }, "a session copied into \(target)")
            if let copied = session.firstIndex(where: isCopy) {
                // The same UID set: exactly the moved message is marked and expunged.
                let uids = session[copied][2]
                let after = session[copied...]
                #expect(after.contains { $0.count == 5 && $0[0...2] == ["UID", "STORE", uids] && $0[3] == "+FLAGS.SILENT" && $0[4] == "(\\DELETED)" }
                        && after.contains { $0 == ["UID", "EXPUNGE", uids] },
                        "UID COPY, then UID STORE \\Deleted and UID EXPUNGE of UID \(uids): \(Array(after.prefix(6)))")
            }
            let commands = try Server.noMoveSessions("alice").flatMap { $0 }
            #expect(!commands.contains { $0.first == "MOVE" || $0.prefix(2) == ["UID", "MOVE"] }, "MOVE is not offered")
            #expect(!commands.contains { $0.first == "EXPUNGE" }, "a bare EXPUNGE removes other clients' \\Deleted messages")
        }
    }

    @Test("generic provider: mv into archive/ moves to the \\Archive folder; mv out of archive/ puts it back",
          arguments: IMAPServerKind.allCases)
    func archiveGeneric(kind: IMAPServerKind) async throws {
        try await kind.shared {
            let letter = Letter("Archived")
            let (mount, folder) = try await MountedMailfs.aliceFolder("Archiving", holding: [letter], on: kind)

            let mv = try await mount.sh("mv 'alice/\(folder)/\(letter.fileName)' alice/archive/ && ls -A 'alice/\(folder)'")
            #expect(mv.status == 0 && !mv.lines.contains(letter.fileName), "\(mv.output)")
            try await expect(Server.waitUntil(letter, user: "alice", isIn: ["Archive"], on: kind), orExplain: { "\(await Server.places(letter, user: "alice", on: kind)): \(mount.text("alice/.log"))" })
            #expect(try await mount.waitForFiles([letter.fileName], in: "alice/archive", seconds: 10), "listed in archive/")

            let back = try await mount.sh("mv 'alice/archive/\(letter.fileName)' 'alice/\(folder)/'")
            #expect(back.status == 0, "\(back.output)")
            try await expect(Server.waitUntil(letter, user: "alice", isIn: [folder], on: kind), orExplain: { "\(await Server.places(letter, user: "alice", on: kind))" })
            #expect(try await mount.listing("alice/\(folder)") == [letter.fileName])
        }
    }

    @Test("Gmail: mv into archive/ copies the message to All Mail before it leaves INBOX; mv out of archive/ labels it again; mv of a label's file into archive/ removes that label")
    func archiveGmail() async throws {
        try await SharedServers.shared {
            let label = Server.unique("Gmail-label")
            let (archived, labelled) = (Letter("Gmail archived"), Letter("Gmail unlabelled"))
            try await Server.createMailbox("gmail", label)
            // Not in All Mail: as on a Gmail account whose expunged mail is deleted, or a
            // server whose All Mail shows only what some folder holds, the message lives
            // only while INBOX (and the label) hold it. Expunging without the COPY loses it.
            try await Server.append([archived, labelled], user: "gmail", mailbox: "INBOX")
            try await Server.append([labelled], user: "gmail", mailbox: label)
            let mount = try MountedMailfs.configured([WriteBackAccount(user: "gmail")])
            try await mount.startAndWait(for: ["gmail/inbox": [archived, labelled], "gmail/\(label)": [labelled]], account: "gmail")

            let mv = try await mount.sh("mv 'gmail/inbox/\(archived.fileName)' gmail/archive/ && ls -A gmail/inbox")
            #expect(mv.status == 0 && !mv.lines.contains(archived.fileName), "\(mv.output)")
            #expect(try await mount.waitForFiles([archived.fileName], in: "gmail/archive", seconds: 10))
            try await expect(Server.waitUntil(archived, user: "gmail", isIn: ["[Gmail]/All Mail"]), orExplain: { "\(await Server.places(archived, user: "gmail")): \(mount.text("gmail/.log"))" })

            let back = try await mount.sh("mv 'gmail/archive/\(archived.fileName)' 'gmail/\(label)/'")
            #expect(back.status == 0, "\(back.output)")
            try await expect(Server.waitUntil(archived, user: "gmail", isIn: ["[Gmail]/All Mail", label]), orExplain: { "copied from All Mail: \(await Server.places(archived, user: "gmail"))" })
            #expect(try await mount.listing("gmail/\(label)").contains(archived.fileName))
            #expect(try await !mount.listing("gmail/archive").contains(archived.fileName))

            let unlabel = try await mount.sh("mv 'gmail/\(label)/\(labelled.fileName)' gmail/archive/")
            #expect(unlabel.status == 0, "\(unlabel.output)")
            try await expect(Server.waitUntil(labelled, user: "gmail", isIn: ["INBOX", "[Gmail]/All Mail"]), orExplain: { "only the label goes: \(await Server.places(labelled, user: "gmail"))" })
            #expect(try await !mount.listing("gmail/\(label)").contains(labelled.fileName))
            #expect(try await mount.listing("gmail/inbox").contains(labelled.fileName))
        }
    }

    @Test("mv within or into threads/, the unified inbox/ or attachments/ fails with EPERM and changes nothing")
    func mvIntoVirtualRefused() async throws {
        try await SharedServers.shared {
            let folder = Server.unique("Virtual")
            let (letter, neighbour, inboxLetter) = (Letter("Not movable"), Letter("Other thread"), Letter("Unified inbox"))
            try await Server.createMailbox("alice", folder)
            try await Server.append([letter, neighbour], user: "alice", mailbox: folder)
            try await Server.append([inboxLetter], user: "alice", mailbox: "INBOX")
            let mount = try MountedMailfs.configured([WriteBackAccount()])
            try await mount.startAndWait(for: ["alice/\(folder)": [letter, neighbour], "alice/inbox": [inboxLetter]])
            var (thread, otherThread) = ("", "")
            #expect(try await Poll.until(seconds: 10) {
                thread = try await mount.sh("ls alice/threads | grep -F '\(letter.subject)'").lines.first ?? ""
                otherThread = try await mount.sh("ls alice/threads | grep -F '\(neighbour.subject)'").lines.first ?? ""
                return !thread.isEmpty && !otherThread.isEmpty
            })
            var unified = ""
            #expect(try await Poll.until(seconds: 10) {
                unified = try await mount.sh("ls inbox | grep -F '\(inboxLetter.subject)'").lines.first ?? ""
                return !unified.isEmpty
            })
            let file = "alice/\(folder)/\(letter.fileName)"
            let attempts = [
                "mv '\(file)' 'alice/threads/\(otherThread)/'",
                "mv 'alice/threads/\(thread)/\(letter.fileName)' 'alice/threads/\(thread)/renamed.eml'",
                "mv '\(file)' inbox/",
                "mv 'inbox/\(unified)' 'inbox/renamed.eml'",
                "mv '\(file)' alice/attachments/",
            ]
            for command in attempts {
                let result = try await mount.sh(command)
                #expect(result.status != 0 && result.output.contains("Operation not permitted"), "\(command): \(result.output)")
            }
            #expect(Set(try await mount.listing("alice/\(folder)")) == [letter.fileName, neighbour.fileName])
            #expect(try await mount.listing("alice/threads/\(otherThread)") == [neighbour.fileName, "conversation.txt"])
            #expect(try await mount.listing("inbox").contains(unified))
            #expect(mount.pendingChanges("alice") == 0)
            #expect(try await Server.locate(letter, user: "alice") == [folder])
            #expect(try await Server.locate(inboxLetter, user: "alice") == ["INBOX"])
        }
    }

    @Test("cp of a file with LF line ends into a folder APPENDs it with \\Seen (drafts/: \\Draft too) under its generated name",
          arguments: IMAPServerKind.allCases, ["custom", "Drafts"])
    func cpAppends(kind: IMAPServerKind, mailbox role: String) async throws {
        try await kind.shared {
            let mailbox = try role == "custom" ? kind.unique("Cp") : role
            let directory = "alice/" + (role == "custom" ? mailbox : "drafts")
            if role == "custom" { try await Server.createMailbox("alice", mailbox, on: kind) }
            let mount = try MountedMailfs.configured([WriteBackAccount(kind: kind)])
            try await mount.start()
            #expect(try await mount.waitForIdle("alice"))
            #expect(try await mount.waitForDirectory(directory))
            let letter = Letter("Copied in")
            // As a user writes it: Cyrus refuses an APPEND with bare LF, so mailfs sends CR LF.
            let note = try mount.draft("note.eml", WriteBackRefusalTests.unixFile(letter))

            let cp = try await mount.sh("cp '\(note)' '\(directory)/'")
            #expect(cp.status == 0, "\(cp.output)")
            try await expect(mount.waitForFiles([letter.fileName], in: directory, seconds: 15), orExplain: { "\((try? await mount.listing(directory)) ?? [])" })
            #expect(try await !mount.listing(directory).contains("note.eml"))
            #expect(try await Poll.until(seconds: 15) { try await Server.message(letter, user: "alice", mailbox: mailbox, on: kind) != nil },
                    "\(mount.text("alice/.log"))")
            let flags = try await Server.message(letter, user: "alice", mailbox: mailbox, on: kind)?.flags ?? []
            #expect(flags.contains("\\Seen"), "\(flags)")
            #expect(flags.contains("\\Draft") == (role == "Drafts"), "\(flags)")
            #expect(try await Server.locate(letter, user: "alice", on: kind) == [mailbox], "appended once")
            #expect(try await mount.sh("cat '\(directory)/\(letter.fileName)'").output.contains("write-back test"))
        }
    }

    /// An empty file cannot be refused at close(): a shell's `cat > f <<EOF` closes the
    /// still-empty first descriptor before writing. It is dropped at release, with a line
    /// in .log; anything written that is not a message fails at close().
    @Test("cp of a file that is not a message into a folder appends nothing and says why in .log; non-empty ones fail with EINVAL",
          arguments: ["empty.eml", "garbage.eml"])
    func cpRefusesNonMessages(name: String) async throws {
        try await SharedServers.shared {
            let folder = Server.unique("Cp-refused")
            try await Server.createMailbox("alice", folder)
            let mount = try MountedMailfs.configured([WriteBackAccount()])
            try await mount.start()
            #expect(try await mount.waitForIdle("alice"))
            #expect(try await mount.waitForDirectory("alice/\(folder)"))
            let file = try await mount.invalidDraft(name)
            let cp = try await mount.sh("cp '\(file)' 'alice/\(folder)/'")
            if name != "empty.eml" {
                #expect(cp.status != 0 && cp.output.contains("Invalid argument"), "\(cp.output)")
            }
            #expect(try await mount.listing("alice/\(folder)").isEmpty)
            #expect(try await Poll.until(seconds: 5) { mount.text("alice/.log").contains(name) }, "\(mount.text("alice/.log"))")
            #expect(mount.pendingChanges("alice") == 0)
            #expect(try await Server.count("alice", folder) == 0)
        }
    }

    @Test(".status has pending_changes and change_error right after outbox_error")
    func statusKeys() async throws {
        try await SharedServers.shared {
            let mount = try MountedMailfs.configured([WriteBackAccount(user: "bob")])
            try await mount.start()
            #expect(try await mount.waitForIdle("bob"))
            let lines = mount.text("bob/.status").split(separator: "\n").map(String.init)
            let index = try #require(lines.firstIndex { $0.hasPrefix("outbox_error: ") }, "\(lines)")
            #expect(lines.dropFirst(index + 1).prefix(2) == ["pending_changes: 0", "change_error: none"], "\(lines)")
        }
    }

    @Test("a move the server refuses for good (target deleted by another client: [TRYCREATE]) is reverted at once with the reason",
          arguments: IMAPServerKind.allCases)
    func refusedMoveIsReverted(kind: IMAPServerKind) async throws {
        try await kind.shared {
            let (source, target) = (try kind.unique("Refused-from"), try kind.unique("Refused-to"))
            let letter = Letter("Refused move")
            try await Server.createMailbox("alice", source, target, on: kind)
            try await Server.append([letter], user: "alice", mailbox: source, on: kind)
            let mount = try MountedMailfs.configured([WriteBackAccount(kind: kind, retryDelaySeconds: 20)])
            try await mount.startAndWait(for: ["alice/\(source)": [letter]])
            #expect(try await mount.waitForDirectory("alice/\(target)"))
            #expect(try await Server.seed(["delete-mailbox", "--user", "alice", target], on: kind).status == 0)

            let moved = Date()
            let mv = try await mount.sh("mv 'alice/\(source)/\(letter.fileName)' 'alice/\(target)/'")
            #expect(mv.status == 0, "accepted locally: \(mv.output)")
            #expect(try await Poll.until(seconds: 60) { try await mount.listing("alice/\(source)") == [letter.fileName] },
                    "back in its folder: \(mount.text("alice/.log"))")
            #expect(Date().timeIntervalSince(moved) < 10, "not retried: no retry makes the folder exist")
            #expect(!mount.text("alice/.log").contains("retry"), "\(mount.text("alice/.log"))")
            let error = mount.status("change_error", of: "alice") ?? ""
            #expect(error != "none" && (error.contains(target) || error.contains(letter.subject)), "change_error: \(error)")
            #expect(mount.text("alice/.log").contains(target), "\(mount.text("alice/.log"))")
            #expect(mount.pendingChanges("alice") == 0)
            #expect(try await Server.locate(letter, user: "alice", on: kind) == [source])
        }
    }
}
