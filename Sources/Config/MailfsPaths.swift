#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where mailfs keeps its files, by the XDG Base Directory rules (docs/REQUIREMENTS.md §C7):
///
///     config file  $XDG_CONFIG_HOME/mailfs/config.toml   (default ~/.config/mailfs/config.toml)
///     data         $XDG_DATA_HOME/mailfs                  (default ~/.local/share/mailfs)
///
/// As the XDG spec says, an empty or relative `XDG_*` value is ignored. Creating the data
/// directory (mode 0700) is the store's job; this type only names the paths.
public struct MailfsPaths: Sendable, Equatable {
    /// `…/mailfs`, the directory holding `config.toml`.
    public let configDirectory: String
    /// The default config file; `--config FILE` replaces it.
    public let configFile: String
    /// `…/mailfs`, the root of the local store.
    public let dataDirectory: String

    /// The paths for `environment`, where `HOME` is used when the XDG variables are unset, and
    /// `fallbackHome` (by default the user's passwd entry) when `HOME` is unset too.
    public init(
        environment: [String: String],
        fallbackHome: @autoclosure () -> String? = MailfsPaths.passwdHomeDirectory()
    ) throws(PathsError) {
        func base(_ variable: String, underHome relative: String) throws(PathsError) -> String {
            if let value = environment[variable], value.hasPrefix("/") { return value }
            let home = [environment["HOME"], fallbackHome()].compactMap { $0 }.first { $0.hasPrefix("/") }
            guard let home else { throw PathsError(variable: variable) }
            return Self.join(home, relative)
        }
        configDirectory = Self.join(try base("XDG_CONFIG_HOME", underHome: ".config"), "mailfs")
        configFile = Self.join(configDirectory, "config.toml")
        dataDirectory = Self.join(try base("XDG_DATA_HOME", underHome: ".local/share"), "mailfs")
    }

    /// The home directory in the passwd database for the current user, if any.
    public static func passwdHomeDirectory() -> String? {
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        return String(cString: directory)
    }

    private static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}

/// No directory could be found for mailfs's files.
public struct PathsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The XDG variable that had to be replaced by a home-relative default.
    public let variable: String

    public var description: String {
        "cannot find where mailfs keeps its files: \(variable) and HOME are unset or not absolute paths, "
            + "and the user has no home directory in the passwd database"
    }
}
