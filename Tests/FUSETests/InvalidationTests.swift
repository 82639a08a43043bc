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
            let newPath = mount.path("docs/new.eml")
            #expect(try mount.tool("ls", mount.path("docs")).lines == ["numbers.txt"])
            var buffer = stat()
            #expect(errnoOf { stat(newPath, &buffer) } == ENOENT)

            mount.filesystem.addFile(parent: FS.docs, name: "new.eml", text: "Subject: hi\n")
            // Without notification the kernel keeps answering from its caches.
            #expect(try mount.tool("ls", mount.path("docs")).lines == ["numbers.txt"])
            #expect(errnoOf { stat(newPath, &buffer) } == ENOENT)

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
            let newPath = mount.path("docs/new.eml")
            #expect(try mount.tool("ls", mount.path("docs")).lines == ["numbers.txt"])
            var buffer = stat()
            #expect(errnoOf { stat(newPath, &buffer) } == ENOENT)
            mount.filesystem.addFile(parent: FS.docs, name: "new.eml", text: "Subject: hi\n")

            // Neither an invalidator never mounted nor one whose session ended reaches the
            // kernel: the live mount's cached listing and cached "not found" stay.
            for invalidator in outside {
                invalidator.invalidateEntry(parent: FS.docs, name: "new.eml")
                invalidator.invalidateInode(FS.docs)
                invalidator.invalidateAttributes(FS.docs)
            }
            #expect(try mount.tool("ls", mount.path("docs")).lines == ["numbers.txt"])
            #expect(errnoOf { stat(newPath, &buffer) } == ENOENT)

            // The caches were there to drop: the mounted session's own invalidator drops them.
            mount.session.invalidator.invalidateEntry(parent: FS.docs, name: "new.eml")
            mount.session.invalidator.invalidateInode(FS.docs)
            #expect(try mount.tool("ls", mount.path("docs")).lines == ["new.eml", "numbers.txt"])
        }
    }
}
