/// Reads `[accounts.NAME.imap]` and `[accounts.NAME.smtp]`.
enum EndpointParser {
    enum Service {
        case imap, smtp

        func defaultPort(for security: ConnectionSecurity) -> Int {
            switch self {
            case .imap: security.defaultIMAPPort
            case .smtp: security.defaultSMTPPort
            }
        }
    }

    static let keys = ["host", "port", "security"]

    static func parse(_ table: TableReader, service: Service) throws(ConfigError) -> ServerEndpoint {
        try table.rejectUnknownKeys(allowed: keys)
        guard let host = try table.string("host", expected: "a host name or IP address", isValid: ValueRules.isHost)
        else { throw table.missing("host") }
        let security = try table.choice("security", as: ConnectionSecurity.self) ?? .tls
        let port = try table.integer("port", .range(1...65535)) ?? service.defaultPort(for: security)
        return ServerEndpoint(host: host, port: port, security: security)
    }
}
