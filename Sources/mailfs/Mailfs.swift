import ArgumentParser
import Config

@main
struct Mailfs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mailfs",
        abstract: "Email as a Linux filesystem: IMAP accounts synced into a local store, mounted with FUSE.",
        discussion: overview,
        subcommands: [MountCommand.self, ImportCommand.self, StatusCommand.self, SearchCommand.self, ShowCommand.self, BackupCommand.self,
                      ForgetCommand.self, CacheCommand.self, ConfigCommand.self, InstallServiceCommand.self]
    )

    /// What `mailfs --help` says before the list of commands: where to start, not the
    /// whole reference (that is `mailfs help config`). Lines stay within
    /// `ConfigHelp.maximumLineLength` so the help formatter does not re-wrap them.
    static let overview = """
        Start with `mailfs mount ~/Mail` (no config: an offline demo account), then
        browse with ls and cat: each account has its folders, threads/, search/,
        outbox/ (copy a message in to send it), archive/, .status, .log and .control.

        The config file is ~/.config/mailfs/config.toml; `mailfs help config` prints
        its reference and an example, `mailfs config` checks it. README.md explains
        the tree, the file operations and the sync rules.
        """
}
