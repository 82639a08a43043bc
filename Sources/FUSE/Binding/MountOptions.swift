/// How `FuseSession` mounts and caches. The defaults suit mailfs: mail is immutable once
/// stored, so the kernel may cache names, attributes and listings for a minute; the tree
/// calls `Invalidator` when the store changes under a mounted directory.
public struct MountOptions: Sendable, Equatable {
    /// The directory to mount on. It must exist and (unless `allowNonEmpty`) be empty.
    public var mountPoint: String
    /// The source shown by `mount`/`df` (fsname=); the type shows as `fuse.<subtype>`.
    public var fsname: String
    public var subtype: String
    /// Seconds the kernel may trust a name -> inode answer.
    public var entryTimeout: Double
    /// Seconds the kernel may trust attributes (size, mtime, mode).
    public var attributeTimeout: Double
    /// Seconds the kernel may remember that a name does not exist (0 disables).
    public var negativeEntryTimeout: Double
    /// Let other users see the mount. Never on unless the user asks
    /// (docs/REQUIREMENTS.md §C2); needs `user_allow_other` in /etc/fuse.conf for non-root
    /// users.
    public var allowOther: Bool
    /// libfuse3 mounts over a non-empty directory, hiding its files; we refuse unless asked.
    public var allowNonEmpty: Bool
    /// libfuse's own request trace on stderr (`-d`).
    public var debug: Bool
    /// Requests answered at once, at most (`RequestLoop`).
    public var maxThreads: Int
    /// While a command sends a burst of requests, ask the kernel to keep idle CPUs polling
    /// instead of halting (`BurstWakeLatency`; needs root).
    public var keepsCPUsAwakeInBursts: Bool
    /// Install libfuse's SIGINT/SIGTERM/SIGHUP handlers for the duration of `run()`.
    /// Only one session per process can own them; embedders (and tests running several
    /// mounts) turn this off and end the session with `unmount()`.
    public var handleSignals: Bool
    /// `statfs` (df, file managers, rsync) reports the space of the filesystem holding this
    /// path, normally the store's directory; nil reports zero blocks.
    public var spaceReportPath: String?

    public init(mountPoint: String,
                fsname: String = "mailfs",
                subtype: String = "mailfs",
                entryTimeout: Double = 60,
                attributeTimeout: Double = 60,
                negativeEntryTimeout: Double = 60,
                allowOther: Bool = false,
                allowNonEmpty: Bool = false,
                debug: Bool = false,
                maxThreads: Int = 10,
                keepsCPUsAwakeInBursts: Bool = true,
                handleSignals: Bool = true,
                spaceReportPath: String? = nil) {
        self.mountPoint = mountPoint
        self.fsname = fsname
        self.subtype = subtype
        self.entryTimeout = entryTimeout
        self.attributeTimeout = attributeTimeout
        self.negativeEntryTimeout = negativeEntryTimeout
        self.allowOther = allowOther
        self.allowNonEmpty = allowNonEmpty
        self.debug = debug
        self.maxThreads = maxThreads
        self.keepsCPUsAwakeInBursts = keepsCPUsAwakeInBursts
        self.handleSignals = handleSignals
        self.spaceReportPath = spaceReportPath
    }

    /// How long after an entry or attributes are sent the kernel may still use them without
    /// asking: the longer timeout, and two seconds for the reply to reach the kernel (it
    /// counts from when it takes the reply in, a loaded machine's moment later).
    public var kernelTrust: Duration {
        .milliseconds(Int64((max(entryTimeout, attributeTimeout) * 1000).rounded(.up))) + .seconds(2)
    }

    /// The argv handed to `fuse_session_new` (argv[0] is a program name, never parsed).
    var sessionArguments: [String] {
        var mountOptions = ["fsname=\(Self.escaped(fsname))", "subtype=\(Self.escaped(subtype))",
                            "default_permissions"]
        if allowOther { mountOptions.append("allow_other") }
        var arguments = ["mailfs", "-o", mountOptions.joined(separator: ",")]
        if debug { arguments.append("-d") }
        return arguments
    }

    /// libfuse splits -o values on commas and treats backslash as an escape.
    private static func escaped(_ value: String) -> String {
        var result = ""
        for character in value {
            if character == "," || character == "\\" { result.append("\\") }
            result.append(character)
        }
        return result
    }
}
