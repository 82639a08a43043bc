import ArgumentParser
import Config
import Foundation

/// `mailfs install-service [DIR]`: writes the systemd user unit for this binary and DIR,
/// then says how to start it. It enables nothing itself: that is the user's call.
struct InstallServiceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install-service",
        abstract: "Install a systemd user service that mounts the mail at DIR at login.",
        discussion: """
            Writes $XDG_CONFIG_HOME/systemd/user/mailfs.service (~/.config/…), with this
            binary's path. Then: systemctl --user daemon-reload; systemctl --user enable
            --now mailfs; journalctl --user -u mailfs shows its log.
            """)

    @Argument(help: "Where to mount (default: ~/Mail).")
    var mountPoint: String?

    @Flag(help: "Replace a mailfs.service that is already there.")
    var force = false

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let home = environment["HOME"], home.hasPrefix("/") else {
            throw CleanExit.failure("HOME is not set: the unit goes into ~/.config/systemd/user")
        }
        let mount = absolute(mountPoint ?? "~/Mail", home: home)
        let directory = (environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.config")
            + "/systemd/user"
        let unit = directory + "/" + ServiceUnit.fileName
        guard force || !FileManager.default.fileExists(atPath: unit) else {
            throw CleanExit.failure("\(unit) exists already; --force replaces it")
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: mount, withIntermediateDirectories: true)
        let text = ServiceUnit.text(binary: try Self.binaryPath(), mountPoint: mount, home: home)
        try Data(text.utf8).write(to: URL(fileURLWithPath: unit), options: .atomic)
        print("""
            mailfs: wrote \(unit) (mounts \(mount)). Start it now and at every login with:
              systemctl --user daemon-reload
              systemctl --user enable --now mailfs
            Its log: journalctl --user -u mailfs (-p warning for problems only)
            """)
    }

    private func absolute(_ path: String, home: String) -> String {
        let expanded = path == "~" ? home : path.hasPrefix("~/") ? home + path.dropFirst(1) : path
        let url = URL(fileURLWithPath: expanded, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        return url.standardizedFileURL.path
    }

    /// This binary's real path, links resolved: the unit must name the file, not the
    /// `./mount` script or a symlink that may move.
    static func binaryPath() throws -> String {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            throw CleanExit.failure("cannot find this program's path (/proc/self/exe)")
        }
        return path
    }
}
