/// Reads `auth` with `password_command` / `token_command`: exactly the command matching `auth`
/// must be present, so a half-edited switch from one to the other is caught at load.
enum CredentialParser {
    static func parse(_ table: TableReader) throws(ConfigError) -> CredentialSource {
        let auth = try table.choice("auth", as: AuthMethod.self) ?? .plain
        let password = try command(table, "password_command")
        let token = try command(table, "token_command")
        switch auth {
        case .plain:
            if token != nil { throw mismatch(table, "token_command", auth: auth, instead: "password_command") }
            guard let password else { throw table.missing("password_command", "missing (required with auth = \"plain\")") }
            return .passwordCommand(password)
        case .xoauth2:
            if password != nil { throw mismatch(table, "password_command", auth: auth, instead: "token_command") }
            guard let token else { throw table.missing("token_command", "missing (required with auth = \"xoauth2\")") }
            return .tokenCommand(token)
        }
    }

    private static func command(_ table: TableReader, _ name: String) throws(ConfigError) -> String? {
        try table.string(name, expected: "a shell command on one line", isValid: ValueRules.hasNoControlCharacters)
    }

    private static func mismatch(_ table: TableReader, _ name: String, auth: AuthMethod, instead: String) -> ConfigError {
        table.error(
            .conflictingKeys, at: name,
            "not used with auth = \"\(auth.rawValue)\"; keep only \(instead), or change auth"
        )
    }
}
