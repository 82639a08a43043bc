import Foundation
import TestSupport
import Testing

/// Fault matrix: `kill -9` of the mount at random moments of an initial sync. Only this test
/// uses frank's account, so every round's fresh store syncs just its folder.
@Suite("Fault matrix: kill -9 during an initial sync")
struct InitialSyncKillTests {
    @Test("20 kill -9 at random moments of an initial sync of 400 messages: after remount each lists exactly the server's messages, a search finds every one of them, and never crashed by itself")
    func killedDuringInitialSync() async throws {
        try await SharedServers.shared {
            let folder = WriteBack.unique("Initial")
            // About 4 MB in two checkpoint batches of 200: seconds of work for a debug build.
            let letters = Letter.many("Initial", 400, bodyLines: 160)
            try await WriteBack.createMailbox("frank", folder)
            try await WriteBack.append(letters, user: "frank", mailbox: folder)
            try await runThenCleanUp({
                let rounds = ProcessInfo.processInfo.environment["MAILFS_TEST_KILL_ROUNDS"].flatMap(Int.init) ?? 20
                let duration = try await Self.initialSyncSeconds(folder, letters)
                var (lost, duplicated, crashed, unindexed) = (0, 0, 0, 0)
                var (moments, midSync) = ([String](), 0)
                let names = Set(letters.map(\.fileName))
                for round in 0..<rounds {
                    let mount = try MountedMailfs.configured([WriteBackAccount(user: "frank")])
                    try await mount.start()
                    let moment = Double.random(in: 0...duration)
                    try await Task.sleep(for: .seconds(moment))
                    let (phase, progress) = (mount.status("phase", of: "frank") ?? "?", mount.status("progress", of: "frank") ?? "?")
                    let wasRunning = await mount.crash()
                    if !wasRunning { crashed += 1 }
                    #expect(wasRunning, "round \(round): the mount ended by itself: \(mount.log)")
                    try await mount.start()
                    let listed = try await Self.listingOnceSynced(mount, folder, letters.count)
                    let found = Set(listed).intersection(names).count
                    (lost, duplicated) = (lost + letters.count - found, duplicated + listed.count - found)
                    #expect(found == letters.count && listed.count == letters.count,
                            "round \(round), killed at \(moment) s (\(progress)): \(listed.count) listed, \(found) of \(letters.count) found\n\(mount.text("frank/.log"))")
                    // A kill between a batch's commit and its full-text index job loses index
                    // rows, which the catch-up at the next start brings back.
                    let searched = Set(try await mount.listing("frank/search/body:letter"))
                    unindexed += letters.count - searched.intersection(names).count
                    #expect(searched == names,
                            "round \(round), killed at \(moment) s (\(progress)): a search finds \(searched.count) of \(letters.count)")
                    #expect(mount.process?.isRunning == true)
                    await mount.stop()
                    let fatal = ["Fatal error", "crashed", "Segmentation", "Illegal instruction"].filter { mount.log.contains($0) }
                    if !fatal.isEmpty { crashed += 1 }
                    #expect(fatal.isEmpty, "round \(round): \(mount.log)")
                    moments.append("\(String(format: "%.1f", moment)) s (\(phase), \(progress))")
                    if phase != "idle" { midSync += 1 }
                }
                // The counts docs/FAULTS.md reports.
                print("fault matrix: kill -9 during an initial sync (\(String(format: "%.1f", duration)) s): \(rounds) rounds "
                      + "(\(midSync) with the sync under way), "
                      + "\(lost) lost, \(duplicated) duplicated, \(crashed) crashed, \(unindexed) missing from search; killed at \(moments.joined(separator: ", "))")
            }, cleanUp: {
                _ = try? await WriteBack.seed(["delete-mailbox", "--user", "frank", folder])
            })
        }
    }

    /// How long an undisturbed initial sync of the folder takes here, from mount to the last
    /// file listed: the range the kills are drawn from.
    static func initialSyncSeconds(_ folder: String, _ letters: [Letter]) async throws -> Double {
        let mount = try MountedMailfs.configured([WriteBackAccount(user: "frank")])
        let started = Date()
        try await mount.start()
        let listed = try await listingOnceSynced(mount, folder, letters.count)
        let seconds = Date().timeIntervalSince(started)
        #expect(Set(listed) == Set(letters.map(\.fileName)))
        await mount.stop()
        return seconds
    }

    /// The folder's listing once the account is idle with the folder complete (or after 120 s).
    static func listingOnceSynced(_ mount: MountedMailfs, _ folder: String, _ count: Int) async throws -> [String] {
        var listed: [String] = []
        _ = try await Poll.until(seconds: 120) {
            listed = try await mount.listing("frank/\(folder)")
            return listed.count >= count && mount.status("phase", of: "frank") == "idle"
        }
        return try await mount.listing("frank/\(folder)")
    }
}
