import FUSE
import Foundation
import Synchronization
import Testing

extension MountedTests {
    @Suite("Reading a mounted tree with real tools") struct Reading {
        typealias FS = InMemoryFilesystem

        @Test("ls -lan shows kinds, modes and the mounting user as owner")
        func listsWithOwnerAndModes() throws {
            let mount = try TestMount()
            defer { try? mount.finish() }
            let result = try mount.tool("ls", "-lan", mount.path(""))
            #expect(result.status == 0, "\(result.standardError)")
            let fields = result.lines.map { $0.split(separator: " ").map(String.init) }
            let owner = ["\(getuid())", "\(getgid())"]
            let hello = try #require(fields.first { $0.last == "hello.txt" })
            #expect(Array(hello.prefix(5)) == ["-rw-------", "1"] + owner + ["13"])
            let docs = try #require(fields.first { $0.last == "docs" })
            #expect(Array(docs.prefix(4)) == ["drwx------", "2"] + owner)
            #expect(fields.contains { $0.last == "." } && fields.contains { $0.last == ".." })
        }

        @Test("stat reports size, mode, mtime, inode and 512-byte blocks")
        func statReportsAttributes() throws {
            let mount = try TestMount()
            defer { try? mount.finish() }
            let hello = try mount.tool("stat", "-c", "%s %a %Y %i %F", mount.path("hello.txt"))
            #expect(hello.standardOutput == "13 600 1709294400 2 regular file\n")
            let numbers = try mount.tool("stat", "-c", "%s %b %B %o", mount.path("docs/numbers.txt"))
            #expect(numbers.standardOutput == "10000 20 512 4096\n")
            let docs = try mount.tool("stat", "-c", "%a %i %F %h", mount.path("docs"))
            #expect(docs.standardOutput == "700 3 directory 2\n")
        }

        @Test("cat, head -c and dd skip= read whole files, prefixes and offsets")
        func readsContent() throws {
            let mount = try TestMount()
            defer { try? mount.finish() }
            #expect(try mount.tool("cat", mount.path("hello.txt")).standardOutput == FS.helloText)
            #expect(try mount.tool("cat", mount.path("docs/numbers.txt")).standardOutput == FS.numbersText)
            let prefix = try mount.tool("head", "-c", "25", mount.path("docs/numbers.txt"))
            #expect(prefix.standardOutput == String(FS.numbersText.prefix(25)))
            let slice = try mount.tool("dd", "if=" + mount.path("docs/numbers.txt"), "bs=1000", "skip=3",
                                       "count=2", "status=none")
            #expect(slice.standardOutput == String(FS.numbersText.dropFirst(3000).prefix(2000)))
            let beyond = try mount.tool("dd", "if=" + mount.path("hello.txt"), "bs=100", "skip=1", "status=none")
            #expect(beyond.status == 0 && beyond.standardOutput.isEmpty)
        }

        @Test("find walks the whole tree")
        func findWalksTree() throws {
            let mount = try TestMount()
            defer { try? mount.finish() }
            let result = try mount.tool("find", mount.path(""), "-maxdepth", "2", "-not", "-path", "*/big/*")
            let relative = result.lines.map { String($0.dropFirst(mount.mountPoint.count)) }.sorted()
            #expect(relative == ["", "/big", "/broken.txt", "/docs", "/docs/numbers.txt", "/hello.txt", "/outbox"])
            let files = try mount.tool("find", mount.path("big"), "-type", "f")
            #expect(files.lines.count == 500)
        }

        @Test("a listing longer than one READDIR buffer comes back whole, in order, once each")
        func longListingPages() throws {
            let mount = try TestMount()
            defer { try? mount.finish() }
            let unsorted = try mount.tool("ls", "-f", mount.path("big"))  // raw readdir order
            #expect(unsorted.lines == [".", ".."] + FS.bigNames)
            let long = try mount.tool("ls", "-l", mount.path("big"))  // READDIRPLUS
            #expect(long.lines.count == 501)
            let inodes = try mount.tool("ls", "-i", mount.path("docs"))
            #expect(inodes.standardOutput == "4 numbers.txt\n")
        }

        @Test("df reports the mount as mailfs")
        func statfsAnswers() throws {
            let mount = try TestMount()
            defer { try? mount.finish() }
            let result = try mount.tool("df", "--output=source,fstype,target", mount.path(""))
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.lines.last?.hasPrefix("mailfs") == true)
            #expect(result.lines.last?.contains("fuse.mailfs") == true)
            var report = statvfs()
            #expect(statvfs(mount.path(""), &report) == 0)
            #expect(report.f_namemax == 255)
        }
    }
}

extension MountedTests.Reading {
    @Test("ls -l on a large folder is answered by READDIRPLUS, not a LOOKUP per file")
    func readdirplusAvoidsLookups() throws {
        let mount = try TestMount()
        defer { try? mount.finish() }
        #expect(try mount.tool("ls", "-d", mount.path("big")).status == 0)
        let before = mount.filesystem.lookupCount.load(ordering: .relaxed)
        let long = try mount.tool("ls", "-l", mount.path("big"))
        #expect(long.lines.count == 501)
        let lookups = mount.filesystem.lookupCount.load(ordering: .relaxed) - before
        #expect(lookups < 50)
    }

    @Test("many threads read and list at once")
    func concurrentReaders() throws {
        let mount = try TestMount()
        defer { try? mount.finish() }
        let failures = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 16) { iteration in
            let ok = iteration.isMultiple(of: 2)
                ? readWhole(mount.path("docs/numbers.txt")) == Array(InMemoryFilesystem.numbersText.utf8)
                : (try? FileManager.default.contentsOfDirectory(atPath: mount.path("big")).count) == 500
            if !ok { failures.add(1, ordering: .relaxed) }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
    }
}

private func readWhole(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { Array($0) }
}
