/// Moments of the write-back between two server commands, where a crash leaves a change
/// half done on the server. The applier tells its `reached` hook of each; the tests that
/// check a replay finishes such a change end the process there (`mailfs mount --crash-at
/// NAME`, a hidden option), so production code reads no test switch of its own.
public enum WriteBackPoint: String, Sendable, CaseIterable {
    /// A move on a server without MOVE: copied to the target, still in the source.
    case afterCopy = "writeback-after-copy"
    /// A Gmail archive: copied to All Mail, still under its label.
    case afterArchiveCopy = "writeback-after-archive-copy"
}
