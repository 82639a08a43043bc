import Foundation
import Testing
@testable import Config

@Suite("Loading the config file from disk")
struct ConfigLoadTests {
    @Test("a file on disk loads, and errors name its path")
    func loadsFromDisk() throws {
        let path = try ConfigFixtures.temporaryFile(named: "config.toml", contents: ConfigFixtures.minimalAccount)
        #expect(try MailfsConfig.load(path: path, environment: [:]).accounts.map(\.name) == ["work"])

        let broken = try ConfigFixtures.temporaryFile(named: "config.toml", contents: "[defaults]\nundo_seconds = -1\n")
        #expect(throws: ConfigError.self) { try MailfsConfig.load(path: broken, environment: [:]) }
        do {
            _ = try MailfsConfig.load(path: broken, environment: [:])
        } catch {
            #expect(error.description == "\(broken):2: defaults.undo_seconds: expected one of 0, 5, 10, 15, 30, got -1")
        }
    }

    @Test("a missing, oversized or non-UTF-8 file is refused", arguments: [
        ("missing", "no such file"),
        ("huge", "larger than 1048576 bytes"),
        ("latin1", "not UTF-8 text"),
    ])
    func unreadable(variant: String, message: String) throws {
        let path: String
        switch variant {
        case "huge":
            path = try ConfigFixtures.temporaryFile(
                named: "config.toml", contents: String(repeating: "# padding\n", count: 110_000))
        case "latin1":
            path = try ConfigFixtures.temporaryFile(named: "config.toml", contents: "")
            try Data([0x23, 0x20, 0xE9, 0x0A]).write(to: URL(fileURLWithPath: path))
        default:
            path = "/nonexistent/mailfs/config.toml"
        }
        do {
            _ = try MailfsConfig.load(path: path, environment: [:])
            Issue.record("loaded \(variant)")
        } catch {
            #expect(error.kind == .unreadableFile)
            #expect(error.description == "\(path): \(message)")
        }
    }

    @Test("ca_file may start with ~/ or be relative to the config file")
    func caFileResolution() throws {
        let caFile = try ConfigFixtures.temporaryFile(named: "ca.pem", contents: "pem")
        let directory = (caFile as NSString).deletingLastPathComponent
        let account = ConfigFixtures.minimalAccount.replacingOccurrences(
            of: "[accounts.work.imap]", with: "ca_file = \"CA\"\n[accounts.work.imap]")

        let relative = account.replacingOccurrences(of: "CA", with: "ca.pem")
        let fromRelative = try MailfsConfig.parse(text: relative, path: directory + "/config.toml", environment: [:])
        #expect(fromRelative.accounts.first?.caFile == directory + "/ca.pem")

        let tilde = account.replacingOccurrences(of: "CA", with: "~/ca.pem")
        let fromTilde = try MailfsConfig.parse(text: tilde, path: "config.toml", environment: ["HOME": directory])
        #expect(fromTilde.accounts.first?.caFile == directory + "/ca.pem")
    }
}
