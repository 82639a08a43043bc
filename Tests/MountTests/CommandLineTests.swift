import Config
import Foundation
import TestSupport
import Testing

/// The first screens a user reads: `mailfs --help`, the config reference, `mailfs config`,
/// and the shell completions, from the real binary.
@Suite("The command line")
struct CommandLineTests {
    static let commands = ["mount", "import", "status", "search", "backup", "forget", "cache", "config"]

    /// The reference's lines as written (no blank lines), to find whole in a help output.
    static var referenceLines: [String] {
        ConfigHelp.helpText.split(separator: "\n").map(String.init)
    }

    @Test("mailfs --help is an overview: every command, where the reference is, no reference itself")
    func overview() async throws {
        let help = try await MountedMailfs().mailfs(["--help"])
        #expect(help.status == 0)
        for command in Self.commands {
            #expect(help.lines.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix(command + " ") },
                    "no line for \(command) in: \(help.output)")
        }
        #expect(help.output.contains("mailfs help config"))
        #expect(!help.output.contains("[defaults]"))
        #expect(help.lines.count < 40, "\(help.lines.count) lines")
    }

    @Test("mailfs help config and mailfs mount --help print the reference without re-wrapping a line",
          arguments: [["help", "config"], ["mount", "--help"], ["config", "--help"]])
    func reference(arguments: [String]) async throws {
        let help = try await MountedMailfs().mailfs(arguments)
        #expect(help.status == 0)
        let printed = Set(help.lines)
        let broken = Self.referenceLines.filter { !printed.contains($0) }
        #expect(broken.isEmpty, "lines re-wrapped or missing: \(broken)")
    }

    @Test("mailfs config says whether there is a config, checks it and lists its accounts")
    func checkConfig() async throws {
        let mount = try MountedMailfs()
        let none = try await mount.mailfs(["config"])
        #expect(none.status == 0 && none.output.contains("no config file at") && none.output.contains("demo"))

        try mount.writeConfig(ConfigHelp.example)
        let valid = try await mount.mailfs(["config"])
        #expect(valid.status == 0)
        #expect(valid.output.contains("valid, 2 account(s)"))
        #expect(valid.lines.contains("  work: me@example.com, IMAP imap.example.com:993 tls, SMTP smtp.example.com:587 starttls"))
        #expect(valid.output.contains("saved searches: this-week, unread-invoices"))

        try mount.writeConfig(ConfigHelp.example.replacingOccurrences(of: "sync_window_days = 90", with: "sync_window_days = 91"))
        let invalid = try await mount.mailfs(["config"])
        #expect(invalid.status != 0)
        #expect(invalid.output.contains("invalid config") && invalid.output.contains("sync_window_days"), "\(invalid.output)")
    }

    @Test("the generated completion scripts are valid and complete every command", arguments: ["bash", "zsh", "fish"])
    func completions(shell: String) async throws {
        let mount = try MountedMailfs()
        let script = try await mount.mailfs(["--generate-completion-script", shell])
        #expect(script.status == 0)
        for command in Self.commands {
            #expect(script.output.contains(command), "\(shell) completion lacks \(command)")
        }
        guard shell == "bash" else { return }
        let file = mount.root.appendingPathComponent("mailfs.bash")
        try script.output.write(to: file, atomically: true, encoding: .utf8)
        let syntax = try await Shell.run("/bin/bash", ["-n", file.path])
        #expect(syntax.status == 0, "\(syntax.output)")
    }
}
