#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Resolves and checks `ca_file`, so a typo in the path is reported at load rather than as a
/// TLS failure minutes later.
enum CertificateFile {
    /// `path` with `~/` as the home directory, and a relative path taken relative to the
    /// directory of the config file (as include paths are in most tools' config files).
    static func resolve(_ path: String, configFile: String, home: String?) -> String {
        if path.hasPrefix("/") { return path }
        if let home, path.hasPrefix("~/") { return home + path.dropFirst() }
        guard let slash = configFile.lastIndex(of: "/") else { return path }
        return configFile[...slash] + path
    }

    /// Why the file at `path` cannot serve as a CA file, or nil when it is a readable regular file.
    static func problem(at path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else {
            return errno == ENOENT ? "no such file" : "cannot be read (\(String(cString: strerror(errno))))"
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else { return "not a regular file" }
        guard access(path, R_OK) == 0 else { return "not readable (\(String(cString: strerror(errno))))" }
        return nil
    }
}
