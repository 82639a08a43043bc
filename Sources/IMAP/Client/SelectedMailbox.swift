/// What SELECT or EXAMINE said about a mailbox.
///
///     S: * 172 EXISTS
///     S: * OK [UIDVALIDITY 3857529045] UIDs valid
///     S: * OK [UIDNEXT 4392] Predicted next UID
///     S: * OK [HIGHESTMODSEQ 715194045007]
///     S: A0004 OK [READ-WRITE] SELECT completed
public struct SelectedMailbox: Sendable, Equatable {
    /// The raw (modified UTF-7) name that was selected.
    public var name: String
    public var exists: Int
    public var recent: Int
    /// Nil when the server sent none (it must, but sync must not trust that blindly).
    public var uidValidity: UInt32?
    /// Only a prediction, and optional (docs/IMAP-QUIRKS.md §3.2).
    public var uidNext: UInt32?
    /// Nil without the CONDSTORE capability (Yahoo sends a value it cannot honour) or
    /// when the mailbox says `[NOMODSEQ]`.
    public var highestModSeq: UInt64?
    /// `* FLAGS`: the flags defined in the mailbox.
    public var flags: [String]
    /// Flags that can be changed permanently; the FLAGS list when the server sent none.
    public var permanentFlags: [String]
    /// Sequence number of the first unseen message, if sent.
    public var firstUnseen: UInt32?
    public var readOnly: Bool

    public init(
        name: String, exists: Int = 0, recent: Int = 0, uidValidity: UInt32? = nil, uidNext: UInt32? = nil,
        highestModSeq: UInt64? = nil, flags: [String] = [], permanentFlags: [String] = [],
        firstUnseen: UInt32? = nil, readOnly: Bool = false
    ) {
        self.name = name
        self.exists = exists
        self.recent = recent
        self.uidValidity = uidValidity
        self.uidNext = uidNext
        self.highestModSeq = highestModSeq
        self.flags = flags
        self.permanentFlags = permanentFlags
        self.firstUnseen = firstUnseen
        self.readOnly = readOnly
    }

    /// Folds the responses of a completed SELECT/EXAMINE.
    init(name: String, readOnlyCommand: Bool, condStore: Bool, result: CommandResult) {
        self.init(name: name, readOnly: readOnlyCommand)
        var permanent: [String]?
        var noModSeq = false
        for response in result.untagged {
            switch response {
            case .exists(let count): exists = count
            case .recent(let count): recent = count
            case .flags(let list): flags = list
            case .state(let state):
                switch state.code {
                case .uidValidity(let value)?: uidValidity = value
                case .uidNext(let value)?: uidNext = value
                case .unseen(let value)?: firstUnseen = value
                case .highestModSeq(let value)?: highestModSeq = value
                case .noModSeq?: noModSeq = true
                case .permanentFlags(let list)?: permanent = list
                default: break
                }
            default: break
            }
        }
        if result.state.code == .readOnly { readOnly = true }
        if result.state.code == .readWrite { readOnly = false }
        if noModSeq || !condStore { highestModSeq = nil }
        permanentFlags = permanent ?? flags
    }

    /// The untagged responses that belong to a SELECT's result; the rest are events.
    static func claims(_ response: UntaggedResponse) -> Bool {
        switch response {
        case .exists, .recent, .flags: return true
        case .state(let state):
            switch state.code {
            case .uidValidity?, .uidNext?, .unseen?, .highestModSeq?, .noModSeq?, .permanentFlags?: return true
            default: return false
            }
        default: return false
        }
    }
}
