/// The rules for an account's name, which becomes a directory at the mount root.
///
/// Only ASCII letters, digits, `-`, `_` and `.` (not first), at most 64 bytes: such a name can
/// never be `..`, hide itself, contain a `/`, or change under Unicode normalization.
/// `inbox` and `search` (any case) are reserved for the unified inbox and the search
/// directory that sit beside the accounts.
public enum AccountName {
    public static let maximumLength = 64
    public static let reservedNames: Set<String> = ["inbox", "search"]

    /// Why `name` cannot be an account name, or nil when it can.
    public static func problem(with name: String) -> String? {
        if name.isEmpty {
            return "an account name cannot be empty"
        }
        if name.hasPrefix(".") {
            return "an account name cannot start with '.'"
        }
        if name.utf8.count > maximumLength {
            return "an account name is at most \(maximumLength) characters"
        }
        if !name.unicodeScalars.allSatisfy(isAllowed) {
            return "an account name may only contain letters a-z A-Z, digits, '-', '_' and '.'"
        }
        if reservedNames.contains(name.lowercased()) {
            return "\"\(name)\" is reserved for the \(name.lowercased() == "inbox" ? "unified inbox" : "search directory") at the mount root; choose another name"
        }
        return nil
    }

    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": true
        default: false
        }
    }
}
