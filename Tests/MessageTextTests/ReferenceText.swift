@testable import MailCore

/// The text a reader reads in a message, decoded with MailCore alone, independently of the
/// renderer: the reference the corpus test checks the rendering against, itself checked
/// against Python's `email` package (Tests/Oracles/python_text.py follows the same rules).
/// HTML is reduced with `HTMLText`, MailCore's own converter, not with libxml2.
enum ReferenceText {
    static func text(of raw: [UInt8]) -> String {
        readable(MessageParser.structure(raw), raw: raw)
    }

    private static func readable(_ part: MIMEPart, raw: [UInt8]) -> String {
        let type = part.contentType
        if type.isMultipart {
            let children = part.children
            switch type.subtype {
            case "alternative":
                if let plain = children.first(where: { $0.contentType.mimeType == "text/plain" && !$0.isAttachment }) {
                    let text = leafText(plain, raw: raw)
                    if text.contains(where: { !$0.isWhitespace }) { return text }
                }
                let chosen = children.filter { $0.contentType.isMultipart || !$0.isAttachment }
                return (chosen.last ?? children.last).map { readable($0, raw: raw) } ?? ""
            case "related":
                let start = type.parameters["start"].flatMap(MessageIDList.first)
                let root = children.first { start != nil && $0.contentID == start } ?? children.first
                return root.map { readable($0, raw: raw) } ?? ""
            case "signed":
                return children.first.map { readable($0, raw: raw) } ?? ""
            case "encrypted":
                return ""
            default:
                return children.map { readable($0, raw: raw) }.joined(separator: "\n")
            }
        }
        if type.isEncapsulatedMessage {
            return part.children.map { readable($0, raw: raw) }.joined(separator: "\n")
        }
        return part.isAttachment ? "" : leafText(part, raw: raw)
    }

    private static func leafText(_ part: MIMEPart, raw: [UInt8]) -> String {
        var truncated = false
        let text = MessageParser.bodyText(part, raw: raw, truncated: &truncated)
        return part.contentType.subtype == "html" ? HTMLText.plainText(fromHTML: text) : text
    }

    /// The words of 5 letters or more: what the corpus test looks for.
    static func words(_ text: String) -> Set<String> {
        var words: Set<String> = []
        var current = ""
        for character in text {
            if character.isLetter {
                current.append(character)
            } else {
                if current.count >= 5 { words.insert(current) }
                current = ""
            }
        }
        if current.count >= 5 { words.insert(current) }
        return words
    }
}
