import Foundation
import Store

/// `.control`: write-only; each line is a command, executed when the file is closed.
extension MailTree {
    static let controlCommands: Set<String> = ["sync", "reset", "confirm-deletes", "cancel-deletes"]

    public func write(_ inode: Inode, handle: UInt64, offset: UInt64,
                      data: UnsafeRawBufferPointer) throws(FSError) -> Int {
        guard case .control? = files.file(handle) else { throw FSError(EBADF) }
        // A command is a word; anything this large is not one.
        guard data.count <= 4096 else { throw FSError(EFBIG) }
        files.update(handle) { file in
            if case .control(let accountId, var written) = file {
                written.append(contentsOf: data)
                file = .control(accountId: accountId, written: written)
            }
        }
        return data.count
    }

    /// close(2) of `.control` runs the commands; an unknown command fails the close with
    /// EINVAL and is reported in `.log`.
    public func flush(_ inode: Inode, handle: UInt64) throws(FSError) {
        guard case .control(let accountId, let written)? = files.file(handle), !written.isEmpty else { return }
        files.update(handle) { $0 = .control(accountId: accountId, written: []) }
        guard let account = try storeCall({ try accounts.record(id: accountId) }) else { throw FSError(ENOENT) }
        let activity = accounts.activity(for: account)
        let commands = String(decoding: written, as: UTF8.self)
            .split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        for command in commands {
            guard Self.controlCommands.contains(command) else {
                activity.log.record("unknown .control command \"\(command.prefix(40))\"", level: "error")
                throw FSError(EINVAL)
            }
            let handler = controlHandler.withLock { $0 }
            if account.isOffline || handler == nil {
                activity.log.record("\(command): offline account, nothing to do")
            } else if handler?(account.name, command) == true {
                activity.log.record("\(command) requested")
            } else {
                activity.log.record("\(command): not supported yet", level: "error")
                throw FSError(ENOTSUP)
            }
        }
    }
}
