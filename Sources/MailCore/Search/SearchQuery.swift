/// A parsed search: the subset of notmuch's query language (notmuch-search-terms(7)) that
/// mailfs answers, with notmuch's meaning. Built by `SearchParser`; the store compiles it
/// to SQL over its full-text index.
///
///     "from:alice subject:budget"          .and([from alice, subject budget])
///     "tag:unread -from:me@example.com"    .and([tag unread, .not(from me@example.com)])
public indirect enum SearchQuery: Sendable, Equatable {
    /// `*`: every message.
    case everything
    case term(SearchTerm)
    case not(SearchQuery)
    /// Two or more operands.
    case and([SearchQuery])
    /// Two or more operands.
    case or([SearchQuery])
}

/// One condition on a message.
public enum SearchTerm: Sendable, Equatable {
    /// Words of a text field: a word, a phrase (`"quarterly report"`, or a word that the
    /// index splits, such as `alice@example.com`), or a word prefix (`budg*`).
    case text(TextField, TextMatch)
    /// `id:` — the Message-ID, without angle brackets, exactly.
    case messageID(String)
    /// `thread:` — a directory name of `threads/`, exactly.
    case thread(String)
    /// `folder:` — a folder's path in the tree (`inbox`, `Projects/Budget`).
    case folder(String)
    case date(DateRange)
    case tag(MessageTag)
}

/// Where a text term looks. notmuch's free text covers subject, addresses, body and
/// attachment names; mailfs's does too (not the MIME types notmuch also folds in).
public enum TextField: String, Sendable, CaseIterable {
    case any, from, to, subject, body, attachment, mimetype
}

/// The text of a term as written (the index's tokenizer splits it into words), and whether
/// its last word is a prefix (`budg*`).
public struct TextMatch: Sendable, Equatable {
    public var text: String
    public var isPrefix: Bool

    public init(_ text: String, isPrefix: Bool = false) {
        self.text = text
        self.isPrefix = isPrefix
    }
}

/// The tags mailfs knows (`tag:`, `is:`, `has:`): its messages carry no user tags.
public enum MessageTag: String, Sendable, CaseIterable {
    case unread, flagged, attachment
}
