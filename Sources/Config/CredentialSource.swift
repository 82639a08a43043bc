/// Where an account's secret comes from: a shell command whose stdout is the secret, run when
/// needed and never stored (like mbsync's `PassCmd`). Running it is the sync layer's job.
///
/// The command itself is not a secret by design, but users do write `echo hunter2`; so no
/// description, debug description or mirror of this type (or of any config value holding it)
/// ever shows the command. Read `command` explicitly to run it.
public enum CredentialSource: Sendable, Equatable {
    /// `password_command`, used with `auth = "plain"`.
    case passwordCommand(String)
    /// `token_command`, printing an OAuth2 access token, used with `auth = "xoauth2"`.
    case tokenCommand(String)

    /// The shell command to run.
    public var command: String {
        switch self {
        case .passwordCommand(let command), .tokenCommand(let command): command
        }
    }

    /// The authentication this credential serves.
    public var authMethod: AuthMethod {
        switch self {
        case .passwordCommand: .plain
        case .tokenCommand: .xoauth2
        }
    }

    /// The config key this credential is read from.
    public var configKey: String {
        switch self {
        case .passwordCommand: "password_command"
        case .tokenCommand: "token_command"
        }
    }
}

extension CredentialSource: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "\(configKey) (command hidden)" }
    public var debugDescription: String { description }
    /// No children, so `dump` and the default descriptions of containing structs stay redacted.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .enum) }
}
