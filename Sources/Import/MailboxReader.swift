import Foundation
import MailCore
import Store

/// Reads the messages of a discovered mailbox, one at a time, with their flags.
enum MailboxReader {
    struct Message {
        var raw: [UInt8]
        var flags: MessageFlags
        var arrival: Date
    }

    /// Larger files are skipped (and reported): nobody mails a 256 MB message.
    static let maxMessageBytes = 256 << 20

    static func read(_ mailbox: DiscoveredMailbox, skipped: (String) -> Void,
                     each: (Message) throws -> Void) throws {
        switch mailbox.format {
        case .maildir: try readMaildir(mailbox.url, skipped: skipped, each: each)
        case .mbox: try readMbox(mailbox.url, skipped: skipped, each: each)
        }
    }

    private static func readMaildir(_ dir: URL, skipped: (String) -> Void,
                                    each: (Message) throws -> Void) throws {
        let fm = FileManager.default
        for sub in ["cur", "new"] {
            let subdir = dir.appendingPathComponent(sub)
            let names = ((try? fm.contentsOfDirectory(atPath: subdir.path)) ?? []).sorted().filter { !$0.hasPrefix(".") }
            let readAhead = FileReadAhead(paths: names.map { subdir.appendingPathComponent($0).path })
            defer { readAhead.stop() }
            for (index, name) in names.enumerated() {
                readAhead.reader(at: index)
                let file = subdir.appendingPathComponent(name)
                guard let attributes = try? fm.attributesOfItem(atPath: file.path),
                      attributes[.type] as? FileAttributeType == .typeRegular else { continue }
                let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
                guard size <= maxMessageBytes else {
                    skipped("\(file.path): larger than \(maxMessageBytes >> 20) MB")
                    continue
                }
                guard let data = fm.contents(atPath: file.path) else {
                    skipped("\(file.path): unreadable")
                    continue
                }
                let maildir = MaildirFlags.parse(fileName: name)
                let flags = MessageFlags(seen: maildir.seen, flagged: maildir.flagged,
                                         answered: maildir.answered, draft: maildir.draft,
                                         deleted: maildir.trashed)
                let mtime = attributes[.modificationDate] as? Date ?? Date(timeIntervalSince1970: 0)
                try each(Message(raw: [UInt8](data), flags: flags, arrival: mtime))
            }
        }
    }

    private static func readMbox(_ file: URL, skipped: (String) -> Void,
                                 each: (Message) throws -> Void) throws {
        let data: Data
        do {
            data = try Data(contentsOf: file, options: .alwaysMapped)
        } catch {
            skipped("\(file.path): unreadable (\(error.localizedDescription))")
            return
        }
        let mtime = (try? FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate])
            as? Date ?? Date(timeIntervalSince1970: 0)
        for raw in MboxSplitter.split([UInt8](data)) {
            guard raw.count <= maxMessageBytes else {
                skipped("\(file.path): a message larger than \(maxMessageBytes >> 20) MB")
                continue
            }
            let bytes = [UInt8](raw)
            try each(Message(raw: bytes, flags: MboxStatus.flags(of: bytes), arrival: mtime))
        }
    }
}

/// Flags that mutt and other mbox writers keep in `Status:` (R = read) and
/// `X-Status:` (F = flagged, A = answered, T = draft, D = deleted) headers.
enum MboxStatus {
    static func flags(of raw: [UInt8]) -> MessageFlags {
        var flags = MessageFlags()
        let headerEnd = MessageParser.headerBlockEnd(raw)
        let block = String(decoding: raw[..<min(headerEnd, raw.count)], as: UTF8.self)
        for line in block.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let lower = line.lowercased()
            if lower.hasPrefix("status:") {
                flags.seen = flags.seen || lower.dropFirst(7).contains("r")
            } else if lower.hasPrefix("x-status:") {
                let value = lower.dropFirst(9)
                flags.flagged = flags.flagged || value.contains("f")
                flags.answered = flags.answered || value.contains("a")
                flags.draft = flags.draft || value.contains("t")
                flags.deleted = flags.deleted || value.contains("d")
            }
        }
        return flags
    }
}
