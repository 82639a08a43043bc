import Config
import Transport

extension AccountConfig {
    /// A TLS failure as `.status` says it for this account: an untrusted certificate names
    /// the setting that fixes it, the one thing BoringSSL's words never tell.
    func describe(_ failure: TLSFailure, host: String) -> String {
        guard failure == .untrustedCertificate else { return failure.description }
        guard let caFile else {
            return "\(failure): if \(host) uses a private CA, add its certificate with "
                + "ca_file = \"/path/to/ca.pem\" under [accounts.\(name)]"
        }
        return "\(failure): neither the system's CAs nor ca_file (\(caFile)) vouch for \(host)"
    }
}
