import CFuse3
import Foundation

/// SIGINT, SIGTERM and SIGHUP end the loop through libfuse's handlers.
enum SignalHandlers {
    /// libfuse installs a handler only over SIG_DFL, and a process started with `cmd &` from
    /// a script inherits SIGINT ignored, so Ctrl-C would leave the mount up (PITFALLS.md):
    /// the three signals are reset first. Returns false if libfuse could not install them.
    static func install(for session: SessionPointer) -> Bool {
        for ending in [SIGINT, SIGTERM, SIGHUP] { signal(ending, SIG_DFL) }
        return fuse_set_signal_handlers(session.raw) == 0
    }
}
