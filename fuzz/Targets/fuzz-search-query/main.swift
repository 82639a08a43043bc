import FuzzDriver
import MailCore

/// The search language (notmuch's prefixes, boolean operators, quoting, date ranges):
/// parsed, or refused at a position inside the query.
fuzz { bytes in
    let query = text(bytes)
    do throws(SearchQueryError) {
        _ = try SearchParser.parse(query)
    } catch {
        precondition((0...query.count).contains(error.offset), "an error outside the query")
        precondition(!error.reason.isEmpty, "an error without a reason")
    }
}
