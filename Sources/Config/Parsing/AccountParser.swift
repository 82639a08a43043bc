/// Reads one `[accounts.NAME]` table into an `AccountConfig`.
enum AccountParser {
    /// The account keys besides the `[defaults]` keys, which an account may also set.
    static let ownKeys = [
        "address", "username", "auth", "password_command", "token_command",
        "provider", "ca_file", "aliases", "imap", "smtp", "searches",
    ]
    static var keys: [String] { ownKeys + AccountSettings.keyNames }

    static func parse(
        name: String, _ table: TableReader, defaults: AccountSettings, home: String?
    ) throws(ConfigError) -> AccountConfig {
        if let problem = AccountName.problem(with: name) {
            throw table.context.error(.invalidAccountName, at: table.key, problem)
        }
        try table.rejectUnknownKeys(allowed: keys)
        let addressRule = "a mail address like \"me@example.com\""
        guard let address = try table.string("address", expected: addressRule, isValid: ValueRules.isMailAddress)
        else { throw table.missing("address") }
        let username = try table.string(
            "username", expected: "a user name on one line", isValid: ValueRules.hasNoControlCharacters
        )
        let credential = try CredentialParser.parse(table)
        guard let imapTable = try table.table("imap") else {
            throw table.missing("imap", "missing required table [\(table.key.appending("imap"))]")
        }
        let imap = try EndpointParser.parse(imapTable, service: .imap)
        let smtp = try table.table("smtp").map { (smtpTable) throws(ConfigError) in
            try EndpointParser.parse(smtpTable, service: .smtp)
        }
        return AccountConfig(
            name: name,
            address: address,
            username: username ?? address,
            credential: credential,
            provider: try table.choice("provider", as: Provider.self) ?? Provider.guess(imapHost: imap.host),
            caFile: try caFile(table, home: home),
            aliases: try table.strings("aliases", expected: "mail addresses", isValid: ValueRules.isMailAddress) ?? [],
            settings: try defaults.overridden(by: table),
            imap: imap,
            smtp: smtp,
            searches: try SearchesParser.parse(table.table("searches"))
        )
    }

    private static func caFile(_ table: TableReader, home: String?) throws(ConfigError) -> String? {
        guard let written = try table.string("ca_file", expected: "a file path") else { return nil }
        let path = CertificateFile.resolve(written, configFile: table.context.file, home: home)
        if let problem = CertificateFile.problem(at: path) {
            throw table.error(.invalidValue, at: "ca_file", "\(ConfigKey.quoted(path)): \(problem)")
        }
        return path
    }
}
