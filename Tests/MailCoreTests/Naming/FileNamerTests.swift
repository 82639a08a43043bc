import Foundation
import Testing
@testable import MailCore

@Suite("Message and thread names")
struct FileNamerTests {
    /// 2026-11-20 14:32:10 UTC.
    let lunchDate = Date(timeIntervalSince1970: 1_795_185_130)

    @Test("a message name is UTC date, time, sender and subject")
    func messageName() {
        #expect(FileNamer.messageFileName(date: lunchDate, from: "Alice Smith", subject: "Lunch plans")
            == "2026-11-20 1432 Alice Smith - Lunch plans.eml")
    }

    @Test("missing subject and sender get placeholders")
    func placeholders() {
        #expect(FileNamer.messageFileName(date: lunchDate, from: " ", subject: "")
            == "2026-11-20 1432 (unknown sender) - (no subject).eml")
        #expect(FileNamer.threadDirectoryName(date: lunchDate, subject: "Re: ") == "2026-11-20 (no subject)")
    }

    @Test("a thread directory is the root's UTC day and normalized subject")
    func threadDirectory() {
        #expect(FileNamer.threadDirectoryName(date: lunchDate, subject: "Re: [team] Lunch plans")
            == "2026-11-20 Lunch plans")
        #expect(FileNamer.threadDirectoryName(date: lunchDate, subject: "Release v1.2") == "2026-11-20 Release v1.2")
    }

    @Test("dates outside years 1 to 9999 are clamped, never malformed")
    func extremeDates() {
        #expect(FileNamer.threadDirectoryName(date: .distantFuture, subject: "x").hasPrefix("4001-01-01 "))
        #expect(FileNamer.messageFileName(date: Date(timeIntervalSince1970: -1), from: "a", subject: "x")
            == "1969-12-31 2359 a - x.eml")
        #expect(FileNamer.messageFileName(date: Date(timeIntervalSince1970: 951_782_400), from: "a", subject: "x")
            == "2000-02-29 0000 a - x.eml")
        #expect(FileNamer.threadDirectoryName(date: Date(timeIntervalSince1970: 1e15), subject: "x")
            == "9999-12-31 x")
        #expect(FileNamer.threadDirectoryName(date: Date(timeIntervalSince1970: .nan), subject: "x")
            == "1970-01-01 x")
        #expect(FileNamer.messageFileName(date: Date(timeIntervalSince1970: -1e15), from: "a", subject: "x")
            .hasPrefix("0001-01-01 0000 "))
    }

    @Test("the sender is the display name, else the address's local part")
    func senderName() {
        #expect(FileNamer.senderName(EmailAddress(name: "Alice Smith", address: "alice@x")) == "Alice Smith")
        #expect(FileNamer.senderName(EmailAddress(name: " ", address: "alice@example.org")) == "alice")
        #expect(FileNamer.senderName(EmailAddress(name: nil, address: "@nowhere")) == FileNamer.unknownSender)
        #expect(FileNamer.senderName(nil) == FileNamer.unknownSender)
    }

    @Test("disambiguation numbers the name before its extension")
    func disambiguation() {
        #expect(FileNamer.disambiguate("a.eml", attempt: 1) == "a.eml")
        #expect(FileNamer.disambiguate("a.eml", attempt: 2) == "a (2).eml")
        #expect(FileNamer.disambiguate("report.final.pdf", attempt: 10) == "report.final (10).pdf")
        #expect(FileNamer.disambiguate("2026-11-20 v1.2", attempt: 3) == "2026-11-20 v1.2 (3)")
        #expect(FileNamer.disambiguate("2026-11-20 notes.txt", attempt: 2, keepingExtension: false)
            == "2026-11-20 notes.txt (2)")
        let long = FileNamer.sanitize(String(repeating: "é", count: 300) + ".eml")
        let numbered = FileNamer.disambiguate(long, attempt: 12345)
        #expect(numbered.utf8.count <= 255)
        #expect(numbered.hasSuffix("é (12345).eml"))
    }

    @Test("a name over 255 bytes is cut on a grapheme boundary and keeps its extension")
    func longNames() {
        let subject = String(repeating: "👩‍👩‍👧 ", count: 200)
        let name = FileNamer.messageFileName(date: lunchDate, from: "Alice", subject: subject)
        #expect(name.utf8.count <= 255)
        #expect(name.hasSuffix("👩‍👩‍👧.eml"))
        let zalgo = FileNamer.sanitize("e" + String(repeating: "\u{301}", count: 400) + ".pdf")
        #expect(zalgo.utf8.count <= 255)
        #expect(zalgo.hasSuffix(".pdf"))
    }
}
