extension FetchAttributes {
    /// The FETCH responses among `responses`, one per UID in order of first appearance,
    /// later responses for the same UID filling in or updating items.
    static func mergedByUID(_ responses: [UntaggedResponse]) -> [FetchAttributes] {
        var merged: [FetchAttributes] = []
        var indexByUID: [UInt32: Int] = [:]
        for case .fetch(_, let attributes) in responses {
            guard let uid = attributes.uid else { continue }
            if let index = indexByUID[uid] {
                merged[index].update(with: attributes)
            } else {
                indexByUID[uid] = merged.count
                merged.append(attributes)
            }
        }
        return merged
    }

    /// Takes every item `newer` has.
    mutating func update(with newer: FetchAttributes) {
        flags = newer.flags ?? flags
        internalDate = newer.internalDate ?? internalDate
        rfc822Size = newer.rfc822Size ?? rfc822Size
        envelope = newer.envelope ?? envelope
        bodyStructure = newer.bodyStructure ?? bodyStructure
        modSeq = newer.modSeq ?? modSeq
        bodySections.merge(newer.bodySections) { _, new in new }
        gmailMessageID = newer.gmailMessageID ?? gmailMessageID
        gmailThreadID = newer.gmailThreadID ?? gmailThreadID
        gmailLabels = newer.gmailLabels ?? gmailLabels
        let newlyMalformed = newer.malformed.filter { !malformed.contains($0) }
        malformed += newlyMalformed
    }
}
