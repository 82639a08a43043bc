import Glibc
import NIOCore
import NIOPosix

/// Why a TCP connection to a server could not be made, in the words `.status` shows as
/// the reason an account is offline: "connection refused by 127.0.0.1:993", not NIO's
/// description of every attempt ("Connection errors: SingleConnectionFailure(…)").
public enum ConnectFailure {
    public static func describe(_ error: any Error, host: String, port: Int) -> String {
        guard let failure = error as? NIOConnectionError else { return "\(host):\(port): \(reason(error))" }
        let reasons = failure.connectionErrors.map { reason($0.error) }
        if !reasons.isEmpty {
            // Each address of the host was tried (IPv4 and IPv6): the distinct reasons, in order.
            var seen = Set<String>()
            return "\(reasons.filter { seen.insert($0).inserted }.joined(separator: "; ")) (\(host):\(port))"
        }
        if let lookup = failure.dnsAError ?? failure.dnsAAAAError { return "cannot resolve \(host): \(reason(lookup))" }
        return "no address for \(host)"
    }

    /// An errno as the C library words it, lower-cased ("connection refused"); any other
    /// error as it describes itself.
    static func reason(_ error: any Error) -> String {
        guard let io = error as? IOError else { return "\(error)" }
        return String(cString: strerror(io.errnoCode)).lowercased()
    }
}
