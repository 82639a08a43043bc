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

    @Flag(help: "Open a store whose write-ahead log is missing, damaged or another store's, as its files hold it: what the log held is lost.")
    var acceptLostChanges = false

    /// The store, or the command ends with what is wrong with its file and what to do.
    /// The caller closes it (`withStore` does).
    func openStore() throws -> MailStore {
        let directory = try dataDir ?? paths().dataDirectory
        do {
            return try MailStore(directory: URL(fileURLWithPath: directory), acceptingLostChanges: acceptLostChanges)
        } catch let error as StoreFileError {
            throw CleanExit.failure(error.description)
        }
    }

    /// Runs `body` with the store open, then closes it cleanly, whether `body` succeeds or
    /// not (`MailStore.close`). Damage `body` meets in the store ends the command with the
    /// file, what is wrong and what to do, as at open.
    func withStore<T>(_ body: (MailStore) throws -> T) throws -> T {
        let store = try openStore()
        defer { Self.close(store) }
        do {
            return try body(store)
        } catch {
            guard let damage = store.damage(in: error) else { throw error }
            throw CleanExit.failure(damage.description)
        }
    }

    /// Closes the store; a log that could not be emptied is a warning: nothing is lost.
    static func close(_ store: MailStore) {
        do {
            try store.close()
        } catch {
            FileHandle.standardError.write(Data("mailfs: warning: \(error)\n".utf8))
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
