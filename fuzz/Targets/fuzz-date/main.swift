import Foundation
import FuzzDriver
import MailCore

/// Date header values (RFC 5322 and the obsolete and broken forms seen in real mail).
fuzz { bytes in
    let value = text(bytes)
    if let date = DateParser.parse(value) {
        precondition(date.timeIntervalSince1970.isFinite, "a date that is not a number")
    }
}
