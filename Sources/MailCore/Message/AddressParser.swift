/// RFC 5322 §3.4 address lists (From, To, Cc, Bcc, Reply-To), best effort.
///
/// Handles display names (atoms, quoted strings, RFC 2047 words), comments,
/// groups (flattened: `Team: a@x, b@y;` gives two addresses, `undisclosed-
/// recipients:;` none), angle addresses with obsolete routes (dropped, RFC 5322
/// §4.4) and bare addresses, and keeps going on broken input: an unclosed
/// quote is ignored, an unclosed `<` or `(` runs to the end of the value.
///
///     "Joe Q. Public" <john.q.public@example.com>, Team: a@x, b@y;
public enum AddressParser {
    /// Most mailboxes kept from one header; bounds the work on hostile lists.
    static let maxAddresses = 10_000

    public static func parseList(_ raw: String) -> [EmailAddress] {
        let bytes = Array(raw.utf8)
        var scanner = AddressScanner(bytes: bytes)
        var result: [EmailAddress] = []
        var mailbox = MailboxBuilder()
        while let token = scanner.next(), result.count < maxAddresses {
            switch token {
            case .word(let display, let address, let glued):
                mailbox.add(MailboxBuilder.Word(display: display, address: address), glued: glued)
            case .comment(let text):
                mailbox.comments.append(text)
            case .angle(let address):
                if mailbox.angle != nil {
                    result += mailbox.build()
                    mailbox = MailboxBuilder()
                }
                mailbox.angle = address
            case .groupStart:
                // What came before the colon names the group: not an address.
                mailbox = MailboxBuilder()
            case .separator:
                result += mailbox.build()
                mailbox = MailboxBuilder()
            }
        }
        result += mailbox.build()
        return result
    }
}

/// The lexical pieces of an address list.
enum AddressToken {
    /// An atom or quoted string: its text for a display name and as written
    /// for an address; `glued` when no blank or comment separates it from the
    /// word before (`"john doe"@example.com` is one word).
    case word(display: String, address: String, glued: Bool)
    case comment(String)
    /// The content of `<...>`, comments and blanks removed, route dropped.
    case angle(String)
    /// `:` that opens a group.
    case groupStart
    /// `,` or the `;` that closes a group.
    case separator
}

/// The parts of one mailbox collected so far, turned into addresses at a separator.
struct MailboxBuilder {
    struct Word {
        var display: String
        var address: String
    }

    var words: [Word] = []
    var comments: [String] = []
    var angle: String?

    mutating func add(_ word: Word, glued: Bool) {
        if glued, let last = words.last {
            words[words.count - 1] = Word(display: last.display + word.display, address: last.address + word.address)
        } else {
            words.append(word)
        }
    }

    func build() -> [EmailAddress] {
        if let angle {
            guard Self.isPlausible(angle) else { return [] }
            return [EmailAddress(name: displayName(words) ?? commentName, address: angle)]
        }
        return bareAddresses()
    }

    /// Without `<>`: one address written in pieces (`jdoe@test . example`),
    /// or words among which those with `@` are addresses (`Name a@x`, `a@x b@y`).
    /// An address needs at least one letter or digit; `<<` or `<>` is noise.
    private static func isPlausible(_ address: String) -> Bool {
        address.utf8.contains { ASCII.isLetter($0) || ASCII.isDigit($0) || $0 >= 0x80 }
    }

    private func bareAddresses() -> [EmailAddress] {
        guard words.contains(where: { Self.isPlausible($0.address) }) else { return [] }
        let dotted = words.contains { $0.address.hasPrefix(".") || $0.address.hasSuffix(".") }
        if words.count == 1 || dotted {
            let address = words.map(\.address).joined()
            return [EmailAddress(name: commentName, address: address)]
        }
        let addresses = words.filter { $0.address.utf8.contains(ASCII.at) }
        if addresses.count == 1 {
            let others = words.filter { !$0.address.utf8.contains(ASCII.at) }
            return [EmailAddress(name: displayName(others) ?? commentName, address: addresses[0].address)]
        }
        return addresses.map { EmailAddress(name: nil, address: $0.address) }
    }

    private var commentName: String? {
        comments.isEmpty ? nil : Self.decodedName(comments.joined(separator: " "))
    }

    private func displayName(_ words: [Word]) -> String? {
        words.isEmpty ? nil : Self.decodedName(words.map(\.display).joined(separator: " "))
    }

    private static func decodedName(_ text: String) -> String? {
        let name = HeaderText.unstructured(text)
        return name.isEmpty ? nil : name
    }
}
