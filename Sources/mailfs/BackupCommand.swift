import ArgumentParser
import Foundation
import Store

/// `mailfs backup DEST`: the documented way to copy the store, also while it is mounted.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the whole store into a new directory (also while mounted).",
        discussion: """
            DEST must be new or empty: a backup never overwrites one. It becomes a data \
            directory of its own: mailfs.sqlite, the database as of one moment with nothing \
            left in a write-ahead log, and mailfs-messages.pack, the raw messages it names. \
            To restore, stop mailfs, move the data directory aside and copy DEST in its place \
            (or pass --data-dir DEST). The full-text index, the listings of large folders and \
            downloaded content are not copied: they are rebuilt or downloaded again.
            """)

    @Argument(help: "A new or empty directory.")
    var destination: String

    @OptionGroup var location: LocationOptions

    func run() throws {
        let report: MailStore.BackupReport
        do {
            report = try location.withStore { try $0.backup(to: URL(fileURLWithPath: destination)) }
        } catch let error as BackupError {
            throw CleanExit.failure(error.description)
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw CleanExit.failure("backup into \(destination) failed: \(error)")
        }
        let size = { (bytes: Int64) in bytes.formatted(.byteCount(style: .file)) }
        print("backed up into \(report.destination.path): mailfs.sqlite \(size(report.databaseBytes)), "
              + "mailfs-messages.pack \(size(report.packBytes))")
    }
}
