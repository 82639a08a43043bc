import ArgumentParser
import Config

@main
struct Mailfs: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mailfs",
        abstract: "Email as a Linux filesystem: IMAP accounts synced into a local store, mounted with FUSE.",
        discussion: ConfigHelp.helpText,
        subcommands: [MountCommand.self, ImportCommand.self, StatusCommand.self, SearchCommand.self, ForgetCommand.self,
                      CacheCommand.self]
    )
}
