import FuzzDriver
import MailCore

/// Address lists as in From/To/Cc (groups, comments, quoted names, encoded words, obsolete
/// routes, broken brackets).
fuzz { bytes in
    let value = text(bytes)
    let addresses = AddressParser.parseList(value)
    precondition(addresses.count <= value.utf8.count, "more addresses than bytes")
    for address in addresses {
        _ = FileNamer.senderName(address)
    }
}
