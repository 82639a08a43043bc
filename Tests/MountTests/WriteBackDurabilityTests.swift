import Foundation
import TestSupport
import Testing

/// Write-back that must not lose or repeat anything: the mass-deletion guard, the server
/// down, kill -9 of the mount at any moment, a move cut between COPY and EXPUNGE, and
/// accounts without a server.
@Suite("Write-back: guard, offline, crashes", .serialized)
struct WriteBackDurabilityTests {
    typealias Server = WriteBack

    /// Whether `condition` keeps holding for `seconds` (a check that nothing more happens).
    static func stays(seconds: Double, _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            guard try await condition() else { return false }
            try await Task.sleep(for: .milliseconds(500))
        }
        return try await condition()
    }

    @Test("rm -rf of a 500-message folder with delete_guard = 100: at most 100 reach the server; cancel brings the rest back, confirm deletes them; held deletions survive remount and kill -9")
    func massDeletionGuard() async throws {
        try await SharedServers.shared {
            let (folder, other) = (Server.unique("Big500"), Server.unique("Guard-other"))
            let letters = Letter.many("Bulk", 500)
            let bystander = Letter("Held too")
            try await Server.createMailbox("carol", folder, other)
            try await Server.append(letters, user: "carol", mailbox: folder)
            try await Server.append([bystander], user: "carol", mailbox: other)
            let trashBefore = try #require(try await Server.count("carol", "Trash"))
            let mount = try MountedMailfs.configured([WriteBackAccount(user: "carol", deleteGuard: 100)])
            try await mount.startAndWait(for: ["carol/\(folder)": letters, "carol/\(other)": [bystander]], account: "carol")
            let dir = "carol/\(folder)"

            // First round: rm -rf, then cancel.
            let rm = try await mount.sh("rm -rf '\(dir)'")
            #expect(rm.output.contains("Directory not empty"), "rmdir of a folder whose messages are held: \(rm.output)")
            #expect(try await mount.listing(dir).isEmpty, "every file leaves the listing at once")
            let held = try #require(mount.status("held_deletes", of: "carol").flatMap { Int($0) },
                                    "\(mount.text("carol/.status"))")
            #expect(held >= 400 && held <= 500, "at most delete_guard = 100 go through: held \(held)")
            let log = mount.text("carol/.log")
            #expect(log.contains("1 deletion(s) held by the guard (delete_guard 100"), "the first one held is told: \(log)")
            #expect(!log.contains("2 deletion(s) held"), "one line, not one per file")
            try await expect(Poll.until(seconds: 60) { try await Server.count("carol", folder) == held }, orExplain: { "the \(500 - held) not held reach the server, no held one does: \(await Server.describeCount("carol", folder))" })
            #expect(try await mount.waitForApplied("carol"))
            #expect(try await Self.stays(seconds: 3) { try await Server.count("carol", folder) == held })

            let one = try await mount.sh("rm 'carol/\(other)/\(bystander.fileName)'")
            #expect(one.status == 0, "\(one.output)")
            #expect(mount.status("held_deletes", of: "carol") == "\(held + 1)", "a further deletion is held too")
            #expect(try await Self.stays(seconds: 2) { try await Server.locate(bystander, user: "carol") == [other] })

            await mount.stop()
            try await mount.start()
            #expect(mount.status("held_deletes", of: "carol") == "\(held + 1)", "held across an unmount")
            #expect(try await mount.listing(dir).isEmpty)

            #expect(try await mount.sh("echo cancel-deletes > carol/.control").status == 0)
            try await expect(Poll.until(seconds: 20) { try await mount.listing(dir).count == held }, orExplain: { "\((try? await mount.listing(dir))?.count ?? -1) listed" })
            #expect(try await mount.listing("carol/\(other)") == [bystander.fileName])
            #expect(mount.status("held_deletes", of: "carol") == "0")
            #expect(try await mount.waitForApplied("carol"))
            #expect(try await Server.count("carol", folder) == held, "listed = on the server")
            #expect(try await Server.locate(bystander, user: "carol") == [other])
            #expect(try await Server.count("carol", "Trash") == trashBefore + 500 - held)

            // Second round: rm -rf again, kill -9, remount, confirm.
            _ = try await mount.sh("rm -rf '\(dir)'")
            #expect(try await mount.listing(dir).isEmpty)
            let heldAgain = try #require(mount.status("held_deletes", of: "carol").flatMap { Int($0) })
            #expect(heldAgain <= held && heldAgain >= held - 100, "held \(heldAgain) of \(held)")
            try await expect(Poll.until(seconds: 60) { try await Server.count("carol", folder) == heldAgain }, orExplain: { "\(await Server.describeCount("carol", folder)) on the server" })
            await mount.crash()
            try await mount.start()
            #expect(mount.status("held_deletes", of: "carol") == "\(heldAgain)", "held across kill -9")
            #expect(try await mount.listing(dir).isEmpty)
            #expect(try await Server.count("carol", folder) == heldAgain)

            #expect(try await mount.sh("echo confirm-deletes > carol/.control").status == 0)
            try await expect(Poll.until(seconds: 60) { try await Server.count("carol", folder) == 0 }, orExplain: { "\(await Server.describeCount("carol", folder)) left: \(mount.text("carol/.log"))" })
            #expect(try await mount.waitForApplied("carol"))
            #expect(mount.status("held_deletes", of: "carol") == "0")
            #expect(try await mount.listing(dir).isEmpty)
            #expect(try await Server.count("carol", "Trash") == trashBefore + 500)
            #expect(try await mount.sh("rmdir '\(dir)'").status == 0, "empty now")
            #expect(try await Poll.until(seconds: 15) { try await !Server.exists("carol", folder) })
        }
    }

    /// The guard's basic promise on each server, small enough for the whole matrix; the
    /// 500-message test above adds cancel, remount and kill -9 on Dovecot. bob, since
    /// that test counts carol's Trash.
    @Test("rm of 15 messages with delete_guard = 5: the rest are held, and confirm-deletes takes every one to Trash",
          arguments: IMAPServerKind.allCases)
    func guardHoldsThenConfirms(kind: IMAPServerKind) async throws {
        try await kind.shared {
            let letters = Letter.many("Guarded", 15)
            let (mount, folder) = try await MountedMailfs.seededFolder(
                "Guard", holding: letters, account: WriteBackAccount(user: "bob", kind: kind, deleteGuard: 5))

            let rm = try await mount.sh("rm 'bob/\(folder)'/*.eml")
            #expect(rm.status == 0, "\(rm.output)")
            #expect(try await mount.listing("bob/\(folder)").isEmpty, "every file leaves the listing at once")
            let held = try #require(mount.status("held_deletes", of: "bob").flatMap { Int($0) }, "\(mount.text("bob/.status"))")
            #expect(held >= 10 && held <= 15, "at most delete_guard = 5 go through: held \(held)")
            try await expect(Poll.until(seconds: 30) { try await Server.count("bob", folder, on: kind) == held },
                             orExplain: { "the \(15 - held) not held reach the server: \(await Server.describeCount("bob", folder, on: kind))" })
            #expect(try await mount.waitForApplied("bob"), "\(mount.text("bob/.status"))")
            #expect(try await Server.count("bob", folder, on: kind) == held, "no held one reached the server")

            #expect(try await mount.sh("echo confirm-deletes > bob/.control").status == 0)
            let inTrash = Dictionary(uniqueKeysWithValues: letters.map { ($0.messageID, ["Trash"]) })
            try await expect(Poll.until(seconds: 30) {
                try await Server.census("bob", [folder, "Trash"], on: kind).filter { inTrash[$0.key] != nil } == inTrash
            },
                             orExplain: { "\(await Server.describeCount("bob", folder, on: kind)) left: \(mount.text("bob/.log"))" })
            #expect(mount.status("held_deletes", of: "bob") == "0")
            #expect(try await mount.waitForApplied("bob"))
        }
    }

    @Test("with Dovecot stopped, rm, mv and setfattr apply locally at once and reach the server once it is back")
    func offline() async throws {
        try await SharedServers.exclusive {
            let (source, target) = (Server.unique("Offline"), Server.unique("Offline-to"))
            let (removed, moved, read) = (Letter("Offline rm"), Letter("Offline mv"), Letter("Offline seen"))
            try await Server.createMailbox("alice", source, target)
            try await Server.append([removed, moved, read], user: "alice", mailbox: source)
            let mount = try MountedMailfs.configured([WriteBackAccount()])
            try await mount.startAndWait(for: ["alice/\(source)": [removed, moved, read]])
            #expect(try await mount.waitForDirectory("alice/\(target)"))

            #expect(try await IMAPServerKind.dovecot.control("stop") == 0)
            try await runThenCleanUp({
                let started = Date()
                let changes = try await mount.sh("rm 'alice/\(source)/\(removed.fileName)' && mv 'alice/\(source)/\(moved.fileName)' 'alice/\(target)/'"
                                           + " && setfattr -n user.mailfs.seen -v 1 'alice/\(source)/\(read.fileName)'")
                #expect(changes.status == 0, "\(changes.output)")
                #expect(Date().timeIntervalSince(started) < 5, "applied locally at once")
                #expect(try await mount.listing("alice/\(source)") == [read.fileName])
                #expect(try await mount.listing("alice/\(target)") == [moved.fileName])
                #expect(mount.xattr("user.mailfs.seen", of: "alice/\(source)/\(read.fileName)") == "1")
                #expect(mount.xattr("user.mailfs.pending", of: "alice/\(source)/\(read.fileName)") == "1")
                #expect(try await Poll.until(seconds: 5) { (mount.pendingChanges("alice") ?? 0) > 0 }, "\(mount.text("alice/.status"))")
            }, cleanUp: { #expect((try? await IMAPServerKind.dovecot.control("start")) == 0) })
            _ = try await mount.sh("echo sync > alice/.control")
            var readings: [String?] = []
            let reconnected = try await Poll.until(seconds: 90) {
                readings.append(mount.xattr("user.mailfs.seen", of: "alice/\(source)/\(read.fileName)"))
                let trashed = try await Server.locate(removed, user: "alice") == ["Trash"]
                let movedThere = try await Server.locate(moved, user: "alice") == [target]
                let seen = try await Server.message(read, user: "alice", mailbox: source)?.flags.contains("\\Seen") == true
                return trashed && movedThere && seen
            }
            #expect(reconnected, "\(mount.text("alice/.log"))")
            #expect(readings.allSatisfy { $0 == "1" }, "the pending flag is never undone: \(readings)")
            #expect(try await mount.waitForApplied("alice"), "\(mount.text("alice/.status"))")
            #expect(try await Server.locate(read, user: "alice") == [source])
            #expect(mount.xattr("user.mailfs.pending", of: "alice/\(source)/\(read.fileName)") == "0")
        }
    }

    @Test("kill -9 right after a change: after remount it is applied exactly once", arguments: ["rm", "mv", "setfattr"])
    func killedRightAfter(change: String) async throws {
        try await SharedServers.shared {
            let (source, target) = (Server.unique("Crash-\(change)"), Server.unique("Crash-to"))
            let letter = Letter("Crash \(change)")
            try await Server.createMailbox("alice", source, target)
            try await Server.append([letter], user: "alice", mailbox: source)
            let mount = try MountedMailfs.configured([WriteBackAccount()])
            try await mount.startAndWait(for: ["alice/\(source)": [letter]])
            #expect(try await mount.waitForDirectory("alice/\(target)"))
            let file = "alice/\(source)/\(letter.fileName)"
            let command = switch change {
            case "rm": "rm '\(file)'"
            case "mv": "mv '\(file)' 'alice/\(target)/'"
            default: "setfattr -n user.mailfs.seen -v 1 '\(file)'"
            }
            #expect(try await mount.sh(command).status == 0)
            await mount.crash()
            try await mount.start()

            let expected = switch change {
            case "rm": ["Trash"]
            case "mv": [target]
            default: [source]
            }
            try await expect(Server.waitUntil(letter, user: "alice", isIn: expected, seconds: 30), orExplain: { "\(await Server.places(letter, user: "alice")): \(mount.text("alice/.log"))" })
            if change == "setfattr" {
                #expect(try await Poll.until(seconds: 30) {
                    try await Server.message(letter, user: "alice", mailbox: source)?.flags.contains("\\Seen") == true
                })
                #expect(mount.xattr("user.mailfs.seen", of: file) == "1")
            }
            #expect(try await mount.waitForApplied("alice"))
            #expect(try await Server.locate(letter, user: "alice") == expected, "exactly once")
            let listed = try await mount.listing("alice/\(source)")
            #expect(listed == (change == "setfattr" ? [letter.fileName] : []), "\(listed)")
            if change == "mv" { #expect(try await mount.listing("alice/\(target)") == [letter.fileName]) }
        }
    }

    @Test("20 kill -9 at random moments while rm, mv and setfattr are applied: every change lands exactly once")
    func killLoop() async throws {
        try await SharedServers.shared {
            let (source, target) = (Server.unique("Kills"), Server.unique("Kills-to"))
            let rounds = 20
            let letters = Letter.many("Killed", rounds * 3 + 10)
            try await Server.createMailbox("bob", source, target)
            try await Server.append(letters, user: "bob", mailbox: source)
            let mount = try MountedMailfs.configured([WriteBackAccount(user: "bob")])
            try await mount.startAndWait(for: ["bob/\(source)": letters], account: "bob")
            #expect(try await mount.waitForDirectory("bob/\(target)"))
            let dir = "bob/\(source)"
            var (removed, moved, flagged) = ([Letter](), [Letter](), [Letter]())
            for round in 0..<rounds {
                let (r, m, f) = (letters[3 * round], letters[3 * round + 1], letters[3 * round + 2])
                let batch = try await mount.sh("rm '\(dir)/\(r.fileName)' && mv '\(dir)/\(m.fileName)' 'bob/\(target)/'"
                                         + " && setfattr -n user.mailfs.flagged -v 1 '\(dir)/\(f.fileName)'")
                #expect(batch.status == 0, "round \(round): \(batch.output)")
                (removed, moved, flagged) = (removed + [r], moved + [m], flagged + [f])
                try await Task.sleep(for: .milliseconds(Int.random(in: 0...300)))
                #expect(await mount.crash(), "round \(round): the mount ended by itself: \(mount.log)")
                try await mount.start()
                let listed = Set(try await mount.listing(dir))
                #expect(listed.isDisjoint(with: (removed + moved).map(\.fileName)), "round \(round): a change came back after kill -9")
            }
            let untouched = Array(letters[(rounds * 3)...])
            let mailboxes = ["INBOX", "Trash", source, target]
            var places: [String: [String]] = [:]
            let settled = try await Poll.until(seconds: 90) {
                places = try await Server.census("bob", mailboxes)
                return removed.allSatisfy { places[$0.messageID] == ["Trash"] }
                    && moved.allSatisfy { places[$0.messageID] == [target] }
                    && (flagged + untouched).allSatisfy { places[$0.messageID] == [source] }
            }
            let wrong = letters.filter { letter in
                let want = removed.contains(letter) ? ["Trash"] : moved.contains(letter) ? [target] : [source]
                return places[letter.messageID] != want
            }
            #expect(settled, "\(wrong.count) misplaced: \(wrong.prefix(5).map { "\($0.subject): \(places[$0.messageID] ?? [])" })")
            // The counts docs/FAULTS.md reports.
            print("fault matrix: kill -9 during write-back: \(rounds) rounds, \(letters.count { places[$0.messageID] == nil }) lost, "
                  + "\(letters.count { (places[$0.messageID]?.count ?? 0) > 1 }) duplicated, \(wrong.count) misplaced")
            #expect(try await mount.waitForApplied("bob"), "\(mount.text("bob/.status"))")
            let sourceMessages = try await Server.list("bob", source) ?? []
            #expect(sourceMessages.count == flagged.count + untouched.count)
            #expect(try await Server.count("bob", target) == moved.count)
            let flaggedIDs = Set(sourceMessages.filter { $0.flags.contains("\\Flagged") }.map(\.messageID))
            #expect(flaggedIDs == Set(flagged.map(\.messageID)), "\\Flagged on exactly the flagged ones")
            #expect(Set(try await mount.listing(dir)) == Set((flagged + untouched).map(\.fileName)))
            #expect(Set(try await mount.listing("bob/\(target)")) == Set(moved.map(\.fileName)))
        }
    }

    @Test("no-MOVE server: a move cut between COPY and EXPUNGE (failpoint) ends exactly once in the target after remount")
    func halfDoneMove() async throws {
        try await SharedServers.shared {
            let (source, target) = (Server.unique("Half-from"), Server.unique("Half-to"))
            let letter = Letter("Half done")
            try await Server.createMailbox("alice", source, target)
            try await Server.append([letter], user: "alice", mailbox: source)
            let mount = try MountedMailfs.configured([WriteBackAccount(imapPort: try Server.noMovePort)])
            try await mount.start(extraArguments: ["--crash-at", "writeback-after-copy"])
            #expect(try await mount.waitForIdle("alice"))
            #expect(try await mount.waitForFiles([letter.fileName], in: "alice/\(source)"))
            #expect(try await mount.waitForDirectory("alice/\(target)"))

            #expect(try await mount.sh("mv 'alice/\(source)/\(letter.fileName)' 'alice/\(target)/'").status == 0)
            #expect(try await Poll.until(seconds: 30) { mount.process?.isRunning == false },
                    "the failpoint ends the mount after the COPY: \(mount.text("alice/.log"))")
            #expect(try await Server.locate(letter, user: "alice") == [source, target].sorted(), "copied, not expunged yet")
            await mount.crash()
            try await mount.start()
            try await expect(Server.waitUntil(letter, user: "alice", isIn: [target]), orExplain: { "\(await Server.places(letter, user: "alice")): \(mount.text("alice/.log"))" })
            #expect(try await mount.waitForApplied("alice"))
            #expect(try await Server.locate(letter, user: "alice") == [target], "exactly once")
            #expect(try await mount.listing("alice/\(source)").isEmpty)
            #expect(try await mount.listing("alice/\(target)") == [letter.fileName])
        }
    }

    @Test("an imported account follows the config's [defaults] delete_guard: beyond it, its deletions are held")
    func importedAccountTakesTheDefaultGuard() async throws {
        let mount = try MountedMailfs()
        let letters = (0..<5).map { Letter("Guarded \($0)") }
        let maildir = mount.root.appendingPathComponent("maildir")
        for sub in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(at: maildir.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        for (index, letter) in letters.enumerated() {
            try letter.raw.write(to: maildir.appendingPathComponent("cur/\(index):2,"), atomically: false, encoding: .utf8)
        }
        try await mount.importMail("local", from: maildir)
        try mount.writeConfig("[defaults]\ndelete_guard = 2\n")
        try await mount.start()
        let rm = try await mount.sh("rm local/inbox/*")
        #expect(rm.status == 0, "\(rm.output)")
        #expect(try await mount.listing("local/inbox").isEmpty, "every file leaves the listing at once")
        #expect(mount.status("held_deletes", of: "local") == "3", "\(mount.text("local/.status"))")
        #expect(try await mount.sh("echo cancel-deletes > local/.control").status == 0)
        try await expect(Poll.until(seconds: 10) { try await mount.listing("local/inbox").count == 3 },
                         orExplain: { "\((try? await mount.listing("local/inbox"))?.count ?? -1) listed" })
    }

    @Test("an imported account without a server: rm, mv and setfattr change the store and persist across remount")
    func localOnly() async throws {
        let mount = try MountedMailfs()
        let (removed, moved, read, kept) = (Letter("Local rm"), Letter("Local mv"), Letter("Local seen"), Letter("Local project"))
        let maildir = mount.root.appendingPathComponent("maildir")
        let projects = maildir.appendingPathComponent(".Projects")
        for (dir, letters) in [(maildir, [removed, moved, read]), (projects, [kept])] {
            for sub in ["cur", "new", "tmp"] {
                try FileManager.default.createDirectory(at: dir.appendingPathComponent(sub), withIntermediateDirectories: true)
            }
            for (index, letter) in letters.enumerated() {
                try letter.raw.write(to: dir.appendingPathComponent("cur/\(index):2,"), atomically: false, encoding: .utf8)
            }
        }
        try await mount.importMail("local", from: maildir)
        try await mount.start()
        #expect(Set(try await mount.listing("local/inbox")) == Set([removed, moved, read].map(\.fileName)))
        let changes = try await mount.sh("rm 'local/inbox/\(removed.fileName)' && mv 'local/inbox/\(moved.fileName)' local/Projects/"
                                   + " && setfattr -n user.mailfs.seen -v 1 'local/inbox/\(read.fileName)'")
        #expect(changes.status == 0, "\(changes.output)")
        for remount in [false, true] {
            if remount {
                await mount.stop()
                try await mount.start()
            }
            #expect(try await mount.listing("local/inbox") == [read.fileName], "remounted: \(remount)")
            #expect(Set(try await mount.listing("local/Projects")) == Set([moved.fileName, kept.fileName]), "remounted: \(remount)")
            #expect(mount.xattr("user.mailfs.seen", of: "local/inbox/\(read.fileName)") == "1", "remounted: \(remount)")
        }
    }

    @Test("an imported account without a server: a message copied into a folder is in threads/ at once, one deleted for good leaves it")
    func localThreads() async throws {
        let mount = try MountedMailfs()
        let (root, fresh, doomed) = (Letter("Local root"), Letter("Local fresh"), Letter("Local doomed"))
        let maildir = mount.root.appendingPathComponent("maildir")
        for (dir, letter) in [(maildir, root), (maildir.appendingPathComponent(".Trash"), doomed)] {
            for sub in ["cur", "new", "tmp"] {
                try FileManager.default.createDirectory(at: dir.appendingPathComponent(sub), withIntermediateDirectories: true)
            }
            try letter.raw.write(to: dir.appendingPathComponent("cur/1:2,"), atomically: false, encoding: .utf8)
        }
        try await mount.importMail("local", from: maildir)
        try await mount.start()
        let thread = { (letter: Letter) in "2026-11-21 \(letter.subject)" }
        #expect(Set(try await mount.listing("local/threads")) == Set([thread(root), thread(doomed)]))

        let reply = root.raw.replacingOccurrences(of: "Subject: ", with: "Subject: Re: ")
            .replacingOccurrences(of: "Message-ID: \(root.messageID)",
                                  with: "Message-ID: <reply-\(UUID().uuidString)@example.test>\r\nIn-Reply-To: \(root.messageID)")
        let replyName = "2026-11-21 1200 Ann - Re: \(root.subject).eml"
        let copied = try await mount.sh("cp '\(try mount.draft("reply.eml", reply))' local/inbox/"
                                        + " && cp '\(try mount.draft("fresh.eml", fresh.raw))' local/inbox/")
        #expect(copied.status == 0, "\(copied.output)")
        #expect(try await mount.waitForFiles([root.fileName, replyName], in: "local/threads/\(thread(root))", seconds: 5))
        #expect(try await mount.waitForFiles([fresh.fileName], in: "local/threads/\(thread(fresh))", seconds: 5))

        #expect(try await mount.sh("rm 'local/trash/\(doomed.fileName)'").status == 0)
        let expected = Set([thread(root), thread(fresh)])
        let threadsGo = try await Poll.until(seconds: 5) { Set(try await mount.listing("local/threads")) == expected }
        let threadsNow = try await mount.listing("local/threads")
        #expect(threadsGo, "\(threadsNow)")
        await mount.stop()
        try await mount.start()
        #expect(Set(try await mount.listing("local/threads")) == expected)
        #expect(Set(try await mount.listing("local/threads/\(thread(root))")) == [root.fileName, replyName, "conversation.txt"])
    }
}
