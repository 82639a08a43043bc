import Foundation
import FuzzDriver
import MailCore

/// A file dropped into outbox/: refused with a reason or prepared for SMTP. A prepared
/// message has CR LF line ends only, lines of at most 998 bytes, and is what preparing it
/// again gives (the clock and the token fixed).
fuzz { raw in
    let policy = OutgoingPolicy(accountAddress: "alice@example.org", aliases: ["a@example.org"],
                                displayName: "Alice", maxSize: 1 << 20)
    let now = Date(timeIntervalSince1970: 1_750_000_000)
    guard case .success(let prepared) = OutgoingPreparer.prepare(raw, policy: policy, now: now, uniqueToken: "fuzz")
    else { return }
    var lineLength = 0
    var previous: UInt8 = 0
    for byte in prepared.data {
        if byte == 0x0A {
            precondition(previous == 0x0D, "a bare LF in a prepared message")
            lineLength = 0
        } else {
            precondition(previous != 0x0D, "a bare CR in a prepared message")
            lineLength += 1
            precondition(lineLength <= 999, "a line over 998 bytes")
        }
        previous = byte
    }
    precondition(!prepared.recipients.isEmpty, "prepared without a recipient")
    let again = OutgoingPreparer.prepare(raw, policy: policy, now: now, uniqueToken: "fuzz")
    precondition(again == .success(prepared), "preparing twice gave two messages")
}
