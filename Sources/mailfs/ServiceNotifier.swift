import Foundation
import Glibc

/// Tells systemd how the mount is doing (`Type=notify`): READY=1 once the mount answers,
/// STOPPING=1 on the way down. The protocol is one datagram per message to the unix
/// socket named by NOTIFY_SOCKET (a path, or `@name` in the abstract namespace), so no
/// libsystemd is linked. Without NOTIFY_SOCKET (a terminal, a test) it does nothing.
struct ServiceNotifier: Sendable {
    private let address: [UInt8]?

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        address = environment["NOTIFY_SOCKET"].flatMap(Self.socketAddress)
    }

    var isActive: Bool { address != nil }

    /// `sun_path`'s bytes for NOTIFY_SOCKET: a path as is, `@name` as a NUL then the name;
    /// nil for anything else or too long for `sun_path`.
    static func socketAddress(_ value: String) -> [UInt8]? {
        var bytes = Array(value.utf8)
        guard let first = bytes.first, first == UInt8(ascii: "/") || first == UInt8(ascii: "@") else { return nil }
        if first == UInt8(ascii: "@") { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)
        return bytes.count < capacity ? bytes : nil
    }

    /// Sends `state` ("READY=1", "STOPPING=1", "STATUS=…"); returns whether it was sent.
    /// A failure is not fatal: systemd then times the start out and says so itself.
    @discardableResult
    func notify(_ state: String) -> Bool {
        guard let address else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var target = sockaddr_un()
        target.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &target.sun_path) { path in
            path.copyBytes(from: address)
        }
        let length = socklen_t(MemoryLayout.offset(of: \sockaddr_un.sun_path)! + address.count)
        let message = Array(state.utf8)
        let sent = withUnsafePointer(to: &target) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                sendto(fd, message, message.count, Int32(MSG_NOSIGNAL), socketAddress, length)
            }
        }
        return sent == message.count
    }
}
