/// Where a FETCH sends the literal of one body section piece by piece as it arrives,
/// instead of keeping it in the response (`IMAPConnection.uidFetch(_:section:into:)`).
/// Called on the connection's event loop, in order: keep the work per piece short.
public struct LiteralSink: Sendable {
    /// One step of the streamed literal.
    public enum Piece: Sendable, Equatable {
        /// The server announced the literal of this many bytes.
        case begins(length: Int)
        /// The next bytes of the literal.
        case bytes([UInt8])
        /// The FETCH response that carried the literal was read; its UID as the server gave it.
        case ended(uid: UInt32?)
    }

    /// The item whose literal is streamed, as the server names it (`BODY[2]`, upper case).
    let marker: [UInt8]
    let receive: @Sendable (Piece) -> Void

    public init(section: BodySection, receive: @escaping @Sendable (Piece) -> Void) {
        marker = Array("BODY[\(section.spec)]".uppercased().utf8)
        self.receive = receive
    }
}
