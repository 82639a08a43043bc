@testable import FUSE
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
        let before = mount.lookups
        let long = try mount.tool("ls", "-l", mount.path("big"))
        #expect(long.lines.count == 501)
        #expect(mount.lookups - before < 50)
    }

    /// Adds `name/` to the root: `files` files holding their number, then 300 subdirectories
    /// named `thread-NNN` holding one file per name of `threadFiles` (its text: "thread N"
    /// and the name's text). It is looked up here, so the LOOKUPs a test counts after this
    /// are those of what it runs.
    private static func addDirectory(_ name: String, to mount: TestMount, files: Int,
                                     threadFiles: KeyValuePairs<String, String>) throws {
        let filesystem = mount.filesystem
        let directory = filesystem.addDirectory(parent: InMemoryFilesystem.root, name: name)
        for index in 0..<files {
            filesystem.addFile(parent: directory, name: String(format: "file-%04d.eml", index), text: "\(index)")
        }
        for index in 0..<300 {
            let thread = filesystem.addDirectory(parent: directory, name: String(format: "thread-%03d", index))
            for (file, text) in threadFiles { filesystem.addFile(parent: thread, name: file, text: "thread \(index)\(text)") }
        }
        #expect(try mount.tool("ls", "-d", mount.path(name)).status == 0)
    }

    /// Adds `wide/`, a directory larger than `ListingSnapshots.smallListing`: 1,200 files and
    /// 300 subdirectories of one file each, as a folder of messages and threads/ are.
    private static func addWideDirectory(to mount: TestMount) throws {
        try addDirectory("wide", to: mount, files: 1_200, threadFiles: ["only.eml": ""])
    }

    @Test("find over a large directory looks up none of its subdirectories")
    func findNeedsNoLookups() throws {
        let mount = try TestMount()
        defer { try? mount.finish() }
        try Self.addWideDirectory(to: mount)
        let before = mount.lookups
        let found = try mount.tool("find", mount.path("wide"))
        #expect(found.lines.count == 1 + 1_200 + 300 * 2)
        #expect(mount.lookups - before == 0)
    }

    /// The first listing of the directory: one the kernel cached for `find` or `ls -f` holds
    /// no attributes past its first page, and `ls -l` then looks up those files one by one,
    /// as it did when the kernel chose READDIRPLUS itself.
    @Test("ls -l of a large directory looks up the files of one page at most")
    func longListingNeedsFewLookups() throws {
        let mount = try TestMount()
        defer { try? mount.finish() }
        try Self.addWideDirectory(to: mount)
        let before = mount.lookups
        let long = try mount.tool("ls", "-ln", mount.path("wide"))
        #expect(long.status == 0, "\(long.standardError)")
        let entries = long.lines.dropFirst().map { $0.split(separator: " ").map(String.init) }
        let files = entries.filter { $0.first?.hasPrefix("-") == true }
        #expect(files.count == 1_200 && entries.count == 1_500)
        // Each file holds its number as text ("file-0042.eml" holds "42"): its size is that many bytes.
        #expect(files.allSatisfy { fields in
            let number = fields.last.flatMap { Int($0.dropFirst("file-".count).dropLast(".eml".count)) }
            return number.map { String($0).utf8.count } == Int(fields[4])
        })
        let lookups = mount.lookups - before
        #expect(lookups < 600, "ls -l of 1,500 entries sent \(lookups) LOOKUPs")
    }

    /// Adds `threads/`: 300 small directories of two files each, as threads/ of an account.
    private static func addSmallDirectories(to mount: TestMount) throws {
        try addDirectory("threads", to: mount, files: 0, threadFiles: ["first.eml": " opens", "reply.eml": " answers"])
    }

    /// `find` asks nothing of the files it lists, and the kernel spent more making an inode
    /// for each than on anything else of a walk over threads/; what asks (`stat`) still gets
    /// an answer, by LOOKUP.
    @Test("find over small directories gives the kernel no inode for their files; stat then looks each up")
    func findGetsNoFileInodes() throws {
        let mount = try TestMount()
        defer { try? mount.finish() }
        try Self.addSmallDirectories(to: mount)
        let before = mount.lookups
        #expect(try mount.tool("find", mount.path("threads")).lines.count == 1 + 300 * 3)
        #expect(mount.lookups - before == 0)
        let sizes = try mount.tool("find", mount.path("threads"), "-type", "f", "-printf", "%s\n")
        #expect(sizes.lines.count == 600)
        #expect(sizes.lines.allSatisfy { (Int($0) ?? 0) >= "thread 0 opens".utf8.count })
        // Each file is looked up once at most. A listing the kernel reads again after a LOOKUP
        // (its cached copy dropped, as a loaded machine may) carries its two files' attributes
        // for the next `listingsWithoutLookups` listings, and those files need no LOOKUP.
        let lookups = mount.lookups - before
        let listedWithAttributes = 2 * ListingSnapshots.listingsWithoutLookups
        #expect((600 - listedWithAttributes)...600 ~= lookups, "find -printf %s stats each file: \(lookups) LOOKUPs")
    }

    /// `grep -r` opens every file it lists: once it has looked one up, the listings it reads
    /// next carry their files' attributes, and it looks up no more until
    /// `ListingSnapshots.listingsWithoutLookups` of them passed: two files in 65 directories.
    @Test("grep -r over small directories looks up the files of its first directories only")
    func grepLooksUpFewFiles() throws {
        let mount = try TestMount()
        defer { try? mount.finish() }
        try Self.addSmallDirectories(to: mount)
        let before = mount.lookups
        let found = try mount.tool("grep", "-rl", "answers", mount.path("threads"))
        #expect(found.lines.count == 300)
        let lookups = mount.lookups - before
        #expect(lookups <= 2 * (300 / (ListingSnapshots.listingsWithoutLookups + 1) + 1),
                "grep -r over 600 files sent \(lookups) LOOKUPs")
    }

    @Test("a file listed without its attributes is still found, read and stat'ed by name")
    func filesListedBareAreLookedUp() throws {
        let mount = try TestMount()
        defer { try? mount.finish() }
        try Self.addWideDirectory(to: mount)
        let names = try mount.tool("ls", "-f", mount.path("wide"))
        #expect(names.lines.count == 2 + 1_500)
        let last = mount.path("wide/file-1199.eml")
        #expect(try mount.tool("stat", "-c", "%s %F", last).standardOutput == "4 regular file\n")
        #expect(try mount.tool("cat", last).standardOutput == "1199")
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

extension TestMount {
    /// LOOKUPs the file system has served so far.
    var lookups: Int { filesystem.lookupCount.load(ordering: .relaxed) }
}

private func readWhole(_ path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { Array($0) }
}
