import FUSE
import Foundation
import Testing

extension MountedTests {
    @Suite("New mail while mounted") struct Invalidation {
        typealias FS = InMemoryFilesystem

        @Test("a file added to the store shows up after invalidateEntry + invalidateInode, despite 60 s caches")
        func invalidationShowsNewFile() throws {
            let mount = try TestMount(timeouts: 60)
            defer { try? mount.finish() }
            let newPath = try Self.addBehindTheCaches(mount)
            // Without notification the kernel keeps answering from its caches.
            try Self.expectCachesKept(mount, newPath)

            mount.session.invalidator.invalidateEntry(parent: FS.docs, name: "new.eml")
            mount.session.invalidator.invalidateInode(FS.docs)
            #expect(try mount.tool("ls", mount.path("docs")).lines == ["new.eml", "numbers.txt"])
            #expect(try mount.tool("cat", newPath).standardOutput == "Subject: hi\n")
        }

        @Test("the invalidator does nothing before mount and after the session ended")
        func invalidatorOutsideSession() throws {
            let ended = try TestMount()
            try ended.finish()
            let outside = [Invalidator(), ended.session.invalidator]
            let mount = try TestMount(timeouts: 60)
            defer { try? mount.finish() }
            let newPath = try Self.addBehindTheCaches(mount)

            // Neither an invalidator never mounted nor one whose session ended reaches the
            // kernel: the live mount's cached listing and cached "not found" stay.
            for invalidator in outside {
                invalidator.invalidateEntry(parent: FS.docs, name: "new.eml")
                invalidator.invalidateInode(FS.docs)
                invalidator.invalidateAttributes(FS.docs)
            }
            try Self.expectCachesKept(mount, newPath)

            // The caches were there to drop: the mounted session's own invalidator drops them.
            mount.session.invalidator.invalidateEntry(parent: FS.docs, name: "new.eml")
            mount.session.invalidator.invalidateInode(FS.docs)
            #expect(try mount.tool("ls", mount.path("docs")).lines == ["new.eml", "numbers.txt"])
        }

        /// Fills the kernel's caches of docs/ (its listing, and "new.eml: not found"), then adds
        /// new.eml to the filesystem behind them; returns the new file's path.
        static func addBehindTheCaches(_ mount: TestMount) throws -> String {
            let newPath = mount.path("docs/new.eml")
            #expect(try mount.tool("ls", mount.path("docs")).lines == ["numbers.txt"])
            var buffer = stat()
            #expect(errnoOf { stat(newPath, &buffer) } == ENOENT)
            mount.filesystem.addFile(parent: FS.docs, name: "new.eml", text: "Subject: hi\n")
            return newPath
        }

        /// The kernel still answers docs/ from its caches: no new.eml.
        static func expectCachesKept(_ mount: TestMount, _ newPath: String,
                                     sourceLocation: SourceLocation = #_sourceLocation) throws {
            #expect(try mount.tool("ls", mount.path("docs")).lines == ["numbers.txt"], sourceLocation: sourceLocation)
            var buffer = stat()
            #expect(errnoOf { stat(newPath, &buffer) } == ENOENT, sourceLocation: sourceLocation)
        }
    }
}
