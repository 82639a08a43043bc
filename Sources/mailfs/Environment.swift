import ArgumentParser
import Config
import Foundation
import Store

/// Options every command shares: where the config and the store are.
struct LocationOptions: ParsableArguments {
    @Option(name: .long, help: "Config file (default: $XDG_CONFIG_HOME/mailfs/config.toml).")
    var config: String?

    @Option(name: .long, help: "Store directory (default: $XDG_DATA_HOME/mailfs).")
    var dataDir: String?

    func paths() throws -> MailfsPaths {
        do {
            return try MailfsPaths(environment: ProcessInfo.processInfo.environment)
        } catch {
            throw ValidationError(error.description)
        }
    }

    var configPath: String {
        get throws { try config ?? paths().configFile }
    }

    /// The config, or nil when there is no file (and none was named explicitly).
    func loadConfig() throws -> MailfsConfig? {
        let path = try configPath
        guard config != nil || FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            return try MailfsConfig.load(path: path)
        } catch {
            throw CleanExit.failure("invalid config: \(error.description)")
        }
    }

    /// The store, or the command ends with what is wrong with its file and what to do.
    func openStore() throws -> MailStore {
        let directory = try dataDir ?? paths().dataDirectory
        do {
            return try MailStore(directory: URL(fileURLWithPath: directory))
        } catch let error as StoreFileError {
            throw CleanExit.failure(error.description)
        }
    }
}

/// Ends a command with a one-line message on stderr and exit status 1.
enum CleanExit {
    static func failure(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("mailfs: \(message)\n".utf8))
        return ExitCode.failure
    }
}
