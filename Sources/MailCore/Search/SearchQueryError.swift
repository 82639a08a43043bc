/// Why a query cannot be run, and where: `offset` counts characters from 0, so a caller can
/// point at the place (`mailfs search`) or quote it in `.log`.
public struct SearchQueryError: Error, Sendable, Equatable, CustomStringConvertible {
    public var offset: Int
    public var reason: String

    public init(offset: Int, _ reason: String) {
        self.offset = offset
        self.reason = reason
    }

    /// "at character 12: unterminated quote", counting from 1 as people do.
    public var description: String {
        "at character \(offset + 1): \(reason)"
    }
}
