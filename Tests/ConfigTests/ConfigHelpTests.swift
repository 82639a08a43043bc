import Testing
@testable import Config

@Suite("The config help")
struct ConfigHelpTests {
    @Test("the example in the help is a config mailfs accepts")
    func exampleParses() throws {
        let config = try ConfigFixtures.parse(ConfigHelp.example)
        #expect(config.accounts.map(\.name) == ["personal", "work"])
        let personal = try #require(config.account(named: "personal"))
        #expect(personal.provider == .gmail)
        #expect(personal.credential == .tokenCommand("oauth2-token me@gmail.com"))
        #expect(personal.settings.syncWindowDays == 90)
        let work = try #require(config.account(named: "work"))
        #expect(work.provider == .generic)
        #expect(work.smtp == ServerEndpoint(host: "smtp.example.com", port: 587, security: .starttls))
    }

    @Test("the help names every key mailfs accepts")
    func everyKeyDocumented() {
        let keys = AccountParser.keys + EndpointParser.keys + ["[defaults]", "[accounts.NAME]", "[accounts.NAME.imap]", "[accounts.NAME.smtp]"]
        for key in keys {
            #expect(ConfigHelp.helpText.contains(key), "undocumented: \(key)")
        }
        #expect(ConfigHelp.helpText.contains(ConfigHelp.example.split(separator: "\n")[0]))
    }

    @Test("the help has no trailing spaces and no line the help formatter would re-wrap")
    func layout() {
        for line in ConfigHelp.helpText.split(separator: "\n") {
            #expect(line.last != " ")
            #expect(line.count <= ConfigHelp.maximumLineLength, "too long: \(line)")
        }
    }
}
