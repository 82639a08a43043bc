#if canImport(Glibc)
import Glibc
#endif

/// A port on 127.0.0.1 where connections are refused: a socket bound there that never
/// listens. Unlike a port freed a moment ago, it cannot be handed to another test running
/// in parallel (whose listener would then answer) until this is released.
public final class ReservedPort: @unchecked Sendable {
    public let port: Int
    private let descriptor: Int32

    public init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(descriptor, raw, length) == 0 && getsockname(descriptor, raw, &length) == 0
            }
        }
        guard descriptor >= 0, bound else {
            let code = errno
            if descriptor >= 0 { close(descriptor) }
            throw ChildProcess.SpawnError(reason: "cannot reserve a port: errno \(code)")
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}
