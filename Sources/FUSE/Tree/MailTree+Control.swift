import Activity
import Foundation
import MailContracts
import Store

/// `.control`: write-only; each line is a command, executed when the file is closed.
extension MailTree {
    /// What reading `.control` shows.
    static let controlHelp = Array("""
        # write one command: echo COMMAND > .control
        # \(ControlCommand.allCases.map(\.rawValue).joined(separator: " "))

        """.utf8)

    func writeControl(handle: UInt64, data: UnsafeRawBufferPointer) throws(FSError) -> Int {
        // A command is a word; anything this large is not one.
        guard data.count <= 4096 else { throw FSError(EFBIG) }
        var complete: [UInt8] = []
        var accountId: Int64 = 0
        var oversized = false
        files.update(handle) { file in
            if case .control(let id, var written) = file {
                // Commands are words: a line longer than this is refused at once, so a huge
                // write without a newline costs nothing (and no rescanning of a growing buffer).
                guard written.count + data.count <= 4096 else { oversized = true; return }
                written.append(contentsOf: data)
                // Whole lines run now, so `echo bogus > .control` fails at write(2): shells
                // do not report errors of close(2).
                if let lastNewline = written.lastIndex(of: 10) {
                    complete = Array(written[...lastNewline])
                    written.removeSubrange(...lastNewline)
                }
                accountId = id
                file = .control(accountId: id, written: written)
            }
        }
        guard !oversized else { throw FSError(EFBIG) }
        if !complete.isEmpty { try run(commands: complete, accountId: accountId) }
        return data.count
    }

    /// close(2) of `.control` runs a last command written without a newline; an unknown
    /// command fails with EINVAL and is reported in `.log`.
    func flushControl(handle: UInt64) throws(FSError) {
        guard case .control(let accountId, let written)? = files.file(handle), !written.isEmpty else { return }
        files.update(handle) { $0 = .control(accountId: accountId, written: []) }
        try run(commands: written, accountId: accountId)
    }

    private func run(commands written: [UInt8], accountId: Int64) throws(FSError) {
        guard let account = try storeCall({ try accounts.record(id: accountId) }) else { throw FSError(ENOENT) }
        let activity = accounts.activity(for: account)
        let commands = String(decoding: written, as: UTF8.self)
            .split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        for text in commands {
            guard let command = ControlCommand(rawValue: text) else {
                activity.log.record("unknown .control command \"\(text.prefix(40))\"", level: .error)
                throw FSError(EINVAL)
            }
            try run(command, account: account, log: activity.log)
        }
    }

    /// The guard's answers are the tree's own, for any account (imported ones hold
    /// deletions too); the others need the account's server.
    private func run(_ command: ControlCommand, account: AccountRecord, log: EventLog) throws(FSError) {
        switch command {
        case .confirmDeletes, .cancelDeletes:
            try resolveHeldDeletes(accountId: account.id ?? -1, confirm: command == .confirmDeletes, log: log)
        case .sync, .reset:
            guard !account.isOffline, let services else {
                return log.record("\(command.rawValue): offline account, nothing to do")
            }
            guard services.control(account.name, command) else {
                log.record("\(command.rawValue): not supported for this account", level: .error)
                throw FSError(ENOTSUP)
            }
            log.record("\(command.rawValue) requested")
        }
    }

    /// The guard's answer, for any account (imported ones hold deletions too).
    private func resolveHeldDeletes(accountId: Int64, confirm: Bool, log: EventLog) throws(FSError) {
        let count = try storeCall {
            try store.resolveHeld(accountId: accountId, confirm: confirm, machine: .untimed)
        }
        log.record(confirm ? "confirm-deletes: \(count) held deletion(s) will be applied"
                           : "cancel-deletes: \(count) held deletion(s) cancelled, messages restored")
        if confirm, try writeContext(accountId).isOffline {
            // No server: confirmed rows finish at once.
            try storeCall { try store.finishPendingLocally(accountId: accountId) }
        }
        services?.writeBack.journalChanged(accountId: accountId)
    }
}
