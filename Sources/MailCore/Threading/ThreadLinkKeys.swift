import Foundation

/// What the store indexes of a message so that threading a few new messages finds the
/// threads they can join without grouping the whole account (docs/DECISIONS.md,
/// "Rethreading only the threads a change reaches").
///
/// A key is a 64-bit hash of one thing grouping links messages by:
/// - every Message-ID the message names (its own and its capped parents: the id nodes
///   of `ThreadGrouper` rule 1);
/// - its subject's threading key (rule 2), in one of two kinds: of a message without
///   parent headers, which links to every same-key message within the window, or of one
///   with them, which links only to the former.
///
/// A collision makes a message a candidate it is not; callers only ever widen what they
/// regroup with candidates, which never changes the result, so a hash is enough.
///
///     let stored = ThreadLinkKeys.keys(of: message)       // written beside the message
///     let probe = ThreadLinkKeys.probe(for: newMessage)   // looked up for a new one
public enum ThreadLinkKeys {
    /// The keys stored for `message`, without duplicates.
    public static func keys(of message: ThreadingInput) -> [Int64] {
        var keys = idKeys(of: message)
        if !message.threadingKey.isEmpty {
            keys.append(hash(message.threadingKey, kind: message.hasNoParentHeaders ? .headerlessSubject : .repliedSubject))
        }
        return unique(keys)
    }

    /// What links a new message to stored ones: any stored message holding one of
    /// `ids` shares an id node with it; one holding one of `subjects` is linked to it when
    /// their dates are at most `SubjectFallback.window` apart.
    public struct Probe: Sendable, Equatable {
        public var ids: [Int64]
        public var subjects: [Int64]
    }

    public static func probe(for message: ThreadingInput) -> Probe {
        let key = message.threadingKey
        guard !key.isEmpty else { return Probe(ids: unique(idKeys(of: message)), subjects: []) }
        // A headerless message links to every same-key message; one with parents only to
        // the headerless ones.
        let subjects = message.hasNoParentHeaders
            ? [hash(key, kind: .headerlessSubject), hash(key, kind: .repliedSubject)]
            : [hash(key, kind: .headerlessSubject)]
        return Probe(ids: unique(idKeys(of: message)), subjects: subjects)
    }

    /// The largest date distance, in seconds, of two messages a subject key links.
    public static var subjectWindow: TimeInterval { SubjectFallback.window }

    /// The time the subject window is measured with, as `SubjectFallback` measures it.
    public static func subjectTime(_ date: Date) -> TimeInterval {
        SubjectFallback.time(of: date)
    }

    private enum Kind: UInt8 {
        case messageID = 1
        case headerlessSubject = 2
        case repliedSubject = 3
    }

    private static func idKeys(of message: ThreadingInput) -> [Int64] {
        ((message.ownID.map { [$0] } ?? []) + message.parentIDs).map { hash($0, kind: .messageID) }
    }

    private static func unique(_ keys: [Int64]) -> [Int64] {
        var seen = Set<Int64>()
        return keys.filter { seen.insert($0).inserted }
    }

    /// 64-bit FNV-1a of the kind byte and the UTF-8 bytes: stable across processes and
    /// builds, unlike `Hasher`, because the store keeps it.
    private static func hash(_ text: String, kind: Kind) -> Int64 {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        let prime: UInt64 = 0x0000_0100_0000_01b3
        value = (value ^ UInt64(kind.rawValue)) &* prime
        for byte in text.utf8 {
            value = (value ^ UInt64(byte)) &* prime
        }
        return Int64(bitPattern: value)
    }
}
