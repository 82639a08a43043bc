/// One complete server response, as cut by `ResponseFramer` and read by `ResponseParser`.
///
///     S: * 3 EXISTS                    -> .untagged(.exists(3))
///     S: A7 OK [READ-WRITE] SELECT done -> .tagged(TaggedResponse(tag: "A7", state: …))
///     S: + Ready for literal data       -> .continuation("Ready for literal data")
///
/// Untagged responses may arrive at any time (during any command, or unsolicited), so
/// the client routes them to mailbox state rather than to "the current command".
public enum Response: Sendable, Equatable {
    case tagged(TaggedResponse)
    case untagged(UntaggedResponse)
    /// A continuation request; the text after `+ ` exactly as sent (possibly base64,
    /// possibly empty: some servers send a bare `+`).
    case continuation(String)
}

/// The completion of a command. The tag is whatever the server sent: a tag the client
/// does not know (an earlier command's, seen in the wild) is the client's to discard.
public struct TaggedResponse: Sendable, Equatable {
    public var tag: String
    public var state: ResponseState

    public init(tag: String, state: ResponseState) {
        self.tag = tag
        self.state = state
    }
}

/// `OK` / `NO` / `BAD` with an optional bracketed response code and human text.
public struct ResponseState: Sendable, Equatable {
    public var status: Status
    public var code: ResponseCode?
    /// Human-readable text, read raw (a `{123}` here is text, not a literal).
    public var text: String

    public init(status: Status, code: ResponseCode? = nil, text: String = "") {
        self.status = status
        self.code = code
        self.text = text
    }
}

/// The three outcomes of a command or a status line.
public enum Status: String, Sendable, Equatable {
    case ok = "OK"
    case no = "NO"
    case bad = "BAD"
}
