import Foundation
import IMAP
import MailCore
import Store

/// Turns what sync fetched of a large message (BODYSTRUCTURE, header, text sections) into
/// the store's `PartialContent`: bodies for the index, attachment metadata for
/// attachments/, and the exact RFC822.SIZE; the raw bytes come later, on first read.
enum PartialMessageBuilder {
    /// The leaves that hold the message's text: the first text/plain and text/html parts
    /// that are not attachments, as FR-SYNC-01 step 3 asks.
    static func textSections(of structure: BodyStructure) -> (plain: BodyStructure.Leaf?, html: BodyStructure.Leaf?) {
        let bodies = structure.leaves.filter { leaf in
            leaf.part.type == "text" && !isAttachment(leaf.part)
        }
        return (bodies.first { $0.part.subtype == "plain" }, bodies.first { $0.part.subtype == "html" })
    }

    static func attachments(of structure: BodyStructure) -> [AttachmentInfo] {
        var result: [AttachmentInfo] = []
        var insideMessage: [String] = []
        for leaf in structure.leaves {
            // The parts of an attached message belong to that .eml attachment.
            if insideMessage.contains(where: { leaf.section.hasPrefix($0 + ".") }) { continue }
            let part = leaf.part
            guard isAttachment(part) else { continue }
            if part.message != nil { insideMessage.append(leaf.section) }
            result.append(AttachmentInfo(
                partID: leaf.section, filename: filename(of: part), mimeType: part.mimeType,
                encoding: (part.encoding ?? "7bit").lowercased(),
                size: estimatedDecodedSize(part), isInline: part.disposition?.type.lowercased() == "inline",
                contentID: part.id.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "<> ")) }))
        }
        return result
    }

    /// The same rule as the message parser (`MIMEPart.isAttachment`).
    static func isAttachment(_ part: SinglePart) -> Bool {
        MessageParser.isAttachment(
            contentType: ContentType(type: part.type.lowercased(), subtype: part.subtype.lowercased()),
            dispositionKind: part.disposition?.type, hasFilename: filename(of: part) != nil)
    }

    static func filename(of part: SinglePart) -> String? {
        MessageParser.filename(dispositionParameters: part.disposition?.parameters, typeParameters: part.parameters)
    }

    /// BODYSTRUCTURE gives the encoded size; base64 carries 3 bytes per 4 characters
    /// (line breaks excluded). The exact size replaces this once the part is downloaded.
    static func estimatedDecodedSize(_ part: SinglePart) -> Int {
        let size = Int(clamping: part.size)
        guard (part.encoding ?? "").lowercased() == "base64" else { return size }
        let lines = Int(clamping: part.lines ?? UInt64(size / 78))
        return max(0, (size - 2 * lines) * 3 / 4)
    }
}
