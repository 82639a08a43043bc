// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "mailfs",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "mailfs", targets: ["mailfs"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-ssl", exact: "2.37.6"),
    ],
    targets: [
        // libfuse3 low-level API, through pkg-config (Debian: libfuse3-dev).
        .systemLibrary(
            name: "CFuse3",
            pkgConfig: "fuse3",
            providers: [.apt(["libfuse3-dev"])]
        ),
        // libxml2's HTML parser, through pkg-config (Debian: libxml2-dev).
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // Pure Swift, no I/O: parsing, threading, naming.
        .target(name: "MailCore"),
        // Messages and threads as readable text (conversation.txt, `mailfs show`): no I/O;
        // HTML bodies are parsed in memory by libxml2.
        .target(name: "MessageText", dependencies: ["MailCore", "CLibXML2"]),
        // The configuration file and the paths mailfs uses (saved searches are checked
        // with MailCore's query parser).
        .target(
            name: "Config",
            dependencies: ["MailCore", .product(name: "TOMLKit", package: "TOMLKit")]
        ),
        // sqlite3_config, which Swift cannot call (it is variadic).
        .target(name: "CSQLiteSettings", linkerSettings: [.linkedLibrary("sqlite3")]),
        // fallocate and sync_file_range, which Swift's Glibc module leaves out (GNU only).
        .target(name: "CFileSpace"),
        // GRDB over the system SQLite: schema, migrations, queries, import.
        .target(
            name: "Store",
            dependencies: [
                "MailCore", "CSQLiteSettings", "CFileSpace",
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for the few columns decoded without GRDB (StoredDate).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // What the mounted tree asks of the sync engine, and the sync answers: content
        // downloads, the outbox's sender, the journal's appliers, `.control` commands.
        .target(name: "MailContracts", dependencies: ["MailCore", "Store"]),
        // Reading the user's Maildirs and mbox files, and `mailfs import` into the store.
        .target(name: "Import", dependencies: ["MailCore", "Store"]),
        // Each account's live state (phase, errors, .log) and the .status renderer: what
        // the sync engine records and the tree shows.
        .target(name: "Activity", dependencies: ["Store", "MailCore", "Config"]),
        // What the IMAP and SMTP clients share: TLS settings (1.2+, verified certificates).
        .target(
            name: "Transport",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // IMAP client: response grammar and parser (pure), command encoding, and the
        // SwiftNIO + NIOSSL connection.
        .target(
            name: "IMAP",
            dependencies: [
                "MailCore", "Transport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // SMTP client: reply parser and session state machine (pure), and the SwiftNIO +
        // NIOSSL connection that submits a message.
        .target(
            name: "SMTP",
            dependencies: [
                "Transport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The sync engine: accounts, connection pools, folder sync, credentials.
        .target(
            name: "Sync",
            dependencies: [
                "MailCore", "IMAP", "SMTP", "Transport", "Store", "MailContracts", "Activity", "Config",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // libfuse3 binding and the mounted tree: the only module that knows inodes.
        .target(
            name: "FUSE",
            dependencies: [
                "CFuse3", "MailCore", "MessageText", "Store", "MailContracts", "Activity", "Config",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "mailfs",
            dependencies: [
                "MailCore", "MessageText", "Store", "MailContracts", "Activity", "Import", "Config", "FUSE", "Sync",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // What tests share: child processes (posix_spawn + waitpid), scripted protocol peers,
        // log capture, the shared test servers.
        .target(
            name: "TestSupport",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/TestSupport"
        ),
        // What import and sync tests check on every folder: source, listing and .status agree.
        .target(name: "StoreTestSupport", dependencies: ["Store", "Activity"], path: "Tests/StoreTestSupport"),
        // TestSupport: the attachment parity check runs Python's email package as its oracle.
        .testTarget(name: "MailCoreTests", dependencies: ["MailCore", "TestSupport"]),
        // TestSupport: the corpus test runs Python's email package as its oracle, and the
        // `mailfs show` test runs the built binary.
        .testTarget(name: "MessageTextTests", dependencies: ["MessageText", "MailCore", "TestSupport"]),
        .testTarget(name: "ConfigTests", dependencies: ["Config"]),
        // GRDB: to make the files a store must refuse (another program's database).
        .testTarget(
            name: "StoreTests",
            dependencies: ["Store", "Activity", "Import", "MailCore", "TestSupport", "StoreTestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "SyncTests",
            dependencies: ["Sync", "IMAP", "Transport", "Store", "MailContracts", "Activity", "Config", "MailCore", "TestSupport", "StoreTestSupport",
                           .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(name: "FUSETests", dependencies: ["FUSE", "Config", "MailCore", "Store", "Activity", "Import", "TestSupport"]),
        .testTarget(name: "ActivityTests", dependencies: ["Activity", "Store"]),
        .testTarget(
            name: "IMAPTests",
            dependencies: ["IMAP", "Transport", "TestSupport", .product(name: "NIOEmbedded", package: "swift-nio")]
        ),
        .testTarget(
            name: "SMTPTests",
            dependencies: ["SMTP", "Transport", "TestSupport", .product(name: "NIOEmbedded", package: "swift-nio")]
        ),
        .testTarget(name: "MountTests", dependencies: ["TestSupport", "Config"]),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer targets (docs/FUZZING.md), one executable per parser in fuzz/Targets/. They exist
// only when MAILFS_FUZZ is set (by fuzz/run, which builds them with -sanitize=fuzzer,address
// into .build-fuzz), so neither the normal build nor ./test compiles or links them.
if Context.environment["MAILFS_FUZZ"] != nil {
    let fuzzTargets: [(name: String, dependencies: [Target.Dependency])] = [
        ("fuzz-imap-response", ["IMAP"]),
        ("fuzz-message", ["MailCore"]),
        ("fuzz-header-words", ["MailCore"]),
        ("fuzz-date", ["MailCore"]),
        ("fuzz-address", ["MailCore"]),
        ("fuzz-mbox", ["MailCore"]),
        ("fuzz-outgoing", ["MailCore"]),
        ("fuzz-config", ["Config"]),
        ("fuzz-search-query", ["MailCore"]),
    ]
    package.targets.append(.target(name: "FuzzDriver", path: "fuzz/Targets/FuzzDriver"))
    package.targets += fuzzTargets.map { target in
        .executableTarget(name: target.name, dependencies: ["FuzzDriver"] + target.dependencies,
                          path: "fuzz/Targets/\(target.name)")
    }
}
