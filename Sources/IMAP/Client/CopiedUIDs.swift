/// Where copied or moved messages landed (UIDPLUS `COPYUID`, RFC 4315): the n-th UID of
/// `source` became the n-th UID of `destination` in the target mailbox.
public struct CopiedUIDs: Sendable, Equatable {
    public var uidValidity: UInt32
    public var source: UIDSet
    public var destination: UIDSet

    public init(uidValidity: UInt32, source: UIDSet, destination: UIDSet) {
        self.uidValidity = uidValidity
        self.source = source
        self.destination = destination
    }

    /// From the tagged OK (COPY) or an untagged `* OK [COPYUID …]` (MOVE sends it before
    /// its EXPUNGEs); nil when the server sent none.
    init?(_ result: CommandResult) {
        var codes = result.untagged.compactMap { response -> ResponseCode? in
            if case .state(let state) = response { state.code } else { nil }
        }
        codes.append(contentsOf: result.state.code.map { [$0] } ?? [])
        let found = codes.lazy.compactMap { code -> CopiedUIDs? in
            guard case .copyUID(let validity, let source, let destination) = code else { return nil }
            return CopiedUIDs(uidValidity: validity, source: source, destination: destination)
        }.first
        guard let found else { return nil }
        self = found
    }

    static func claims(_ response: UntaggedResponse) -> Bool {
        if case .state(let state) = response, case .copyUID? = state.code { true } else { false }
    }
}
