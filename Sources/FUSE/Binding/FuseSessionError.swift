import Foundation

/// Why a `FuseSession` could not mount or serve. Mount point problems are `MountPointError`.
public enum FuseSessionError: Error, Equatable, CustomStringConvertible {
    /// mount() on a session that is mounted, running or ended: a session is used once.
    case alreadyStarted
    /// run() before mount() or after the session ended.
    case notMounted
    /// fuse_session_new refused the options (libfuse printed why on stderr).
    case sessionNotCreated
    /// fuse_session_mount failed (libfuse printed why on stderr: no /dev/fuse, permissions).
    case mountFailed(path: String)
    /// fuse_set_signal_handlers failed.
    case signalHandlersNotInstalled
    /// The loop stopped on an error reading /dev/fuse.
    case loopFailed(errno: Int32)

    public var description: String {
        switch self {
        case .alreadyStarted: "this mailfs session was already mounted"
        case .notMounted: "the mailfs session is not mounted"
        case .sessionNotCreated: "libfuse refused the mount options"
        case .mountFailed(let path): "could not mount on \(path) (is /dev/fuse available? see the message above)"
        case .signalHandlersNotInstalled: "could not install the SIGINT/SIGTERM/SIGHUP handlers"
        case .loopFailed(let code): "the FUSE loop stopped: \(String(cString: strerror(code)))"
        }
    }
}
