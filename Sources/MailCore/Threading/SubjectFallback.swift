import Foundation

/// FR-SYNC-06 step 4, made precise:
///
/// A message with neither In-Reply-To nor References (no usable id in either) is linked
/// to EVERY other message — with or without such headers — whose subject has the same
/// `SubjectNormalizer.threadingKey` and whose date is within `window` (30 days,
/// inclusive) of its own. A thread is then the connected component of reference links
/// and these subject links, so a link is only ever made between two messages at most 30
/// days apart, though a chain of such links may span longer (A–B 20 days, B–C 20 days).
/// That choice makes the result independent of message order and monotonic: a new
/// message can merge threads but never split one, so thread directories stay stable.
///
/// An empty key (no subject, or only "Re:") never groups anything.
enum SubjectFallback {
    static let window: TimeInterval = 30 * 24 * 60 * 60

    /// One message of a same-subject bucket.
    private struct Entry {
        /// The message's union-find element.
        var element: Int
        var time: TimeInterval
        var isHeaderless: Bool
    }

    /// The messages filed by non-empty threading key, one message at a time.
    struct Buckets {
        private var byKey: [String: [Entry]] = [:]

        /// `key`: the message's `SubjectNormalizer.threadingKey`.
        mutating func add(element: Int, key: String, date: Date, isHeaderless: Bool) {
            guard !key.isEmpty else { return }
            byKey[key, default: []].append(Entry(element: element, time: SubjectFallback.time(of: date),
                                                 isHeaderless: isHeaderless))
        }

        /// Links the messages of every bucket that holds a headerless one.
        func link(in sets: inout DisjointSets) {
            for bucket in byKey.values where bucket.count > 1 && bucket.contains(where: \.isHeaderless) {
                SubjectFallback.link(bucket: bucket.sorted { ($0.time, $0.element) < ($1.time, $1.element) },
                                     in: &sets)
            }
        }
    }

    /// The time a date is compared by: an invalid one counts as the epoch.
    static func time(of date: Date) -> TimeInterval {
        let time = date.timeIntervalSince1970
        return time.isFinite ? time : 0
    }

    /// Sweeps the bucket in date order. A headerless entry at position p links to all
    /// entries in [low, high], its 30-day neighbourhood; since low and high only move
    /// forward, joining consecutive entries of each new stretch once is enough and the
    /// whole sweep is linear.
    private static func link(bucket: [Entry], in sets: inout DisjointSets) {
        var low = 0
        var high = 0
        var joinedUpTo = 0
        for entry in bucket where entry.isHeaderless {
            while bucket[low].time < entry.time - window { low += 1 }
            while high + 1 < bucket.count, bucket[high + 1].time <= entry.time + window { high += 1 }
            var position = max(low, joinedUpTo)
            while position < high {
                sets.union(bucket[position].element, bucket[position + 1].element)
                position += 1
            }
            joinedUpTo = max(joinedUpTo, high)
        }
    }
}
