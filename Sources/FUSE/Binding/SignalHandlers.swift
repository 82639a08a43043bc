import CFuse3
import Foundation

/// SIGINT, SIGTERM and SIGHUP end the loop through libfuse's handlers.
enum SignalHandlers {
    /// libfuse installs a handler only over SIG_DFL, and a process started with `cmd &` from
    /// a script inherits SIGINT ignored, so Ctrl-C would leave the mount up
    /// (docs/ARCHITECTURE.md, "Platform pitfalls"): the three signals are reset first. They
    /// are also unblocked: a parent that spawned us from a thread blocking them (test
    /// runners, some supervisors) passes its mask on, and a blocked SIGTERM would never
    /// reach the handler. Returns false if libfuse could not install them.
    static func install(for session: SessionPointer) -> Bool {
        var ending = sigset_t()
        sigemptyset(&ending)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            signal(signalNumber, SIG_DFL)
            sigaddset(&ending, signalNumber)
        }
        pthread_sigmask(SIG_UNBLOCK, &ending, nil)
        return fuse_set_signal_handlers(session.raw) == 0
    }
}
