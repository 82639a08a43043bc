import Foundation
import Testing
@testable import Config

@Suite("Reading a valid config")
struct MailfsConfigTests {
    @Test("the DESIGN.md §7 example parses with exactly its values")
    func designExample() throws {
        let caFile = try ConfigFixtures.temporaryFile(named: "my-ca.pem", contents: "-----BEGIN CERTIFICATE-----\n")
        let config = try ConfigFixtures.parse(ConfigFixtures.designExample(caFile: caFile))

        #expect(config.defaults == AccountSettings())
        #expect(config.accounts.count == 1)
        let work = try #require(config.account(named: "work"))
        #expect(work.name == "work")
        #expect(work.address == "me@example.com")
        #expect(work.username == "me@example.com")
        #expect(work.auth == .plain)
        #expect(work.credential == .passwordCommand("pass show mail/work"))
        #expect(work.provider == .generic)
        #expect(work.caFile == caFile)
        #expect(work.aliases == ["me@alias.example"])
        #expect(work.imap == ServerEndpoint(host: "imap.example.com", port: 993, security: .tls))
        #expect(work.smtp == ServerEndpoint(host: "smtp.example.com", port: 465, security: .tls))
        #expect(work.settings.syncWindowDays == 30)
        #expect(work.settings.cacheLimitMB == 500)
        #expect(work.settings.rawStoreMaxKB == 256)
        #expect(work.settings.undoSeconds == 5)
        #expect(work.settings.deleteGuard == 100)
    }

    @Test("a minimal account gets every default")
    func minimalAccountDefaults() throws {
        let config = try ConfigFixtures.parse(ConfigFixtures.minimalAccount)
        let work = try #require(config.accounts.first)
        #expect(work.username == "me@example.com")
        #expect(work.auth == .plain)
        #expect(work.provider == .generic)
        #expect(work.caFile == nil)
        #expect(work.aliases.isEmpty)
        #expect(work.imap == ServerEndpoint(host: "imap.example.com", port: 993, security: .tls))
        #expect(work.smtp == nil)
        #expect(!work.canSend)
        #expect(work.settings == AccountSettings())
        #expect(work.settings.cacheLimitBytes == 500 * 1024 * 1024)
        #expect(work.settings.rawStoreMaxBytes == 256 * 1024)
    }

    @Test("the built-in defaults are those of DESIGN.md §7")
    func builtInDefaults() {
        let settings = AccountSettings()
        #expect(settings.syncWindowDays == 30)
        #expect(settings.cacheLimitMB == 500)
        #expect(settings.rawStoreMaxKB == 256)
        #expect(settings.undoSeconds == 5)
        #expect(settings.deleteGuard == 100)
        #expect(settings.maxConnections == 5)
    }

    @Test("an account's key overrides [defaults], which overrides the built-in value")
    func settingsLayering() throws {
        let text = """
            [defaults]
            sync_window_days = 14
            delete_guard = 20

            [accounts.b]
            address = "b@example.com"
            password_command = "true"
            sync_window_days = 90
            imap = { host = "imap.example.com" }

            [accounts.a]
            address = "a@example.com"
            password_command = "true"
            undo_seconds = 0
            max_connections = 2
            imap.host = "imap.example.com"
            """
        let config = try ConfigFixtures.parse(text)
        #expect(config.defaults.syncWindowDays == 14)
        #expect(config.defaults.deleteGuard == 20)
        #expect(config.accounts.map(\.name) == ["a", "b"])
        let a = try #require(config.account(named: "a"))
        let b = try #require(config.account(named: "b"))
        #expect(a.settings.syncWindowDays == 14)
        #expect(a.settings.undoSeconds == 0)
        #expect(a.settings.deleteGuard == 20)
        #expect(a.settings.maxConnections == 2)
        #expect(b.settings.maxConnections == 5)
        #expect(b.settings.syncWindowDays == 90)
        #expect(b.settings.undoSeconds == 5)
        #expect(b.settings.cacheLimitMB == 500)
    }

    @Test("every sync window of the spec is accepted", arguments: [7, 14, 30, 60, 90])
    func syncWindows(days: Int) throws {
        let config = try ConfigFixtures.parse("[defaults]\nsync_window_days = \(days)\n")
        #expect(config.defaults.syncWindowDays == days)
    }

    @Test("an XOAUTH2 account uses its token_command")
    func xoauth2Account() throws {
        let text = """
            [accounts.personal]
            address = "me@gmail.com"
            username = "login@gmail.com"
            auth = "xoauth2"
            token_command = "oauth2-token me@gmail.com"
            imap.host = "imap.gmail.com"
            smtp.host = "smtp.gmail.com"
            """
        let account = try #require(try ConfigFixtures.parse(text).accounts.first)
        #expect(account.auth == .xoauth2)
        #expect(account.credential == .tokenCommand("oauth2-token me@gmail.com"))
        #expect(account.credential.command == "oauth2-token me@gmail.com")
        #expect(account.username == "login@gmail.com")
        #expect(account.provider == .gmail)
        #expect(account.smtp == ServerEndpoint(host: "smtp.gmail.com", port: 465, security: .tls))
    }

    @Test("no accounts and no defaults is a valid, empty config")
    func emptyConfig() throws {
        #expect(try ConfigFixtures.parse("# nothing yet\n") == MailfsConfig())
    }

    /// Whether a From matches them (in any case) is `OutgoingPolicy`'s to decide.
    @Test("aliases are kept as written")
    func aliases() throws {
        let text = ConfigFixtures.minimalAccount.replacingOccurrences(
            of: "[accounts.work.imap]", with: "aliases = [\"Alias@Example.org\"]\n[accounts.work.imap]"
        )
        let account = try #require(try ConfigFixtures.parse(text).accounts.first)
        #expect(account.address == "me@example.com")
        #expect(account.aliases == ["Alias@Example.org"])
    }
}
