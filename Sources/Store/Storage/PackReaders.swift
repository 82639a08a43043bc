import Synchronization

/// Where a message stored whole keeps its bytes, as an open file needs it (`TreeStore.rawLocation`).
public enum RawLocation: Sendable, Equatable {
    /// In the pack: read by range, with no query, while the file is open.
    case packed(PackedMessage)
    /// In the database (a store from before the pack): read whole with `rawMessage`.
    case database
}

/// A message's region of the pack, and the punching pass it was looked up under.
public struct PackedMessage: Sendable, Hashable {
    public let offset: Int64
    public let count: Int
    /// `PackReaders.pass` when the row was read: a region looked up before a pass began may
    /// be one that pass punches.
    let pass: UInt64

    var range: Range<Int64> { offset..<(offset + Int64(count)) }
}

/// The regions of the pack that open files read, which hole punching leaves alone until
/// they are closed (docs/DECISIONS.md, "Open messages are read from the pack by range").
///
/// An open file keeps its message's region and reads it by range for as long as it is
/// open, while the message may be deleted meanwhile. The protocol that keeps such a file
/// from ever reading a punched hole, within this process:
/// - a reader takes `pass` before it looks the row up, and opens (`open`) only if no pass
///   began since; otherwise it looks the row up again, and finds it gone if it was deleted;
/// - a pass reads the holes it will punch, then begins (`beginPass`), then punches only
///   the holes no reader holds (`isHeld`). A hole's row was deleted before the pass read
///   it, so a reader that found the row looked it up before the pass began, and either
///   opened before (the pass sees it held) or fails to open after.
/// A hole a pass left because a reader held it is punched by a pass scheduled when its
/// last reader closes.
final class PackReaders: Sendable {
    private struct State {
        var pass: UInt64 = 0
        var held: [Range<Int64>: Int] = [:]
        /// Held regions a pass left unpunched.
        var left: Set<Range<Int64>> = []
    }

    private let state = Mutex(State())

    var pass: UInt64 { state.withLock { $0.pass } }

    /// Holds the message's region for an open file; false when a pass began since its row
    /// was read (look it up again).
    func open(_ message: PackedMessage) -> Bool {
        state.withLock { state in
            guard state.pass == message.pass else { return false }
            state.held[message.range, default: 0] += 1
            return true
        }
    }

    /// Lets go of a region; true when a pass left it and nobody holds it any more.
    func close(_ message: PackedMessage) -> Bool {
        state.withLock { state in
            guard let count = state.held[message.range] else { return false }
            if count > 1 {
                state.held[message.range] = count - 1
                return false
            }
            state.held[message.range] = nil
            return state.left.remove(message.range) != nil
        }
    }

    func beginPass() {
        state.withLock { $0.pass += 1 }
    }

    /// Whether an open file holds `range`; if one does, the pass that asks leaves it.
    func isHeld(_ range: Range<Int64>) -> Bool {
        state.withLock { state in
            guard state.held[range] != nil else { return false }
            state.left.insert(range)
            return true
        }
    }
}
