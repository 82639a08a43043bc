import Testing
@testable import Config

@Suite("Credential commands never show up in descriptions")
struct CredentialSourceTests {
    static let secretCommand = "echo hunter2-secret"

    static func account(_ credential: CredentialSource) -> AccountConfig {
        AccountConfig(
            name: "work", address: "me@example.com", username: "me@example.com", credential: credential,
            provider: .generic, imap: ServerEndpoint(host: "imap.example.com", port: 993, security: .tls)
        )
    }

    @Test("no description, debug description or dump prints the command", arguments: [
        CredentialSource.passwordCommand(secretCommand), .tokenCommand(secretCommand),
    ])
    func redacted(credential: CredentialSource) {
        let config = MailfsConfig(accounts: [Self.account(credential)])
        var dumped = ""
        dump(config, to: &dumped)
        let renderings = [
            String(describing: credential), String(reflecting: credential),
            String(describing: config), String(reflecting: config), dumped, "\(config.accounts)",
        ]
        for rendering in renderings {
            #expect(!rendering.contains("hunter2"), "leaked in: \(rendering)")
            #expect(rendering.contains(credential.configKey))
        }
    }

    @Test("the command is still there for whoever runs it", arguments: [
        (CredentialSource.passwordCommand("pass show x"), AuthMethod.plain, "password_command"),
        (.tokenCommand("oauth2-token y"), .xoauth2, "token_command"),
    ])
    func command(credential: CredentialSource, method: AuthMethod, key: String) {
        #expect(credential.authMethod == method)
        #expect(credential.configKey == key)
        #expect(credential.command.hasPrefix(key == "password_command" ? "pass" : "oauth2"))
    }
}
