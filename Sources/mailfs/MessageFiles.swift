import Foundation
import MessageText
#if canImport(Glibc)
import Glibc
#endif

/// What `mailfs show` reads: message files, directories of them and stdin, turned into the
/// renderer's input values. The only I/O of showing a message.
enum MessageFiles {
    /// A message bigger than this is refused rather than read into memory whole.
    static let maxMessageBytes = 256 * 1024 * 1024

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Renders `path` (a message file, a directory, or `-` for stdin) and hands each piece of
    /// text to `write` as it is ready: a folder's messages one by one, so a big folder is never
    /// held whole.
    static func show(_ path: String, write: (String) -> Void) throws {
        if path == "-" {
            let raw = try read(fileDescriptor: 0, name: "stdin")
            return write(MessageRenderer.render(ConversationMessage(raw: raw, fileName: nil)))
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw Failure(description: "\(path): no such file or directory")
        }
        guard isDirectory.boolValue else { return write(MessageRenderer.render(try message(at: path))) }
        if let conversation = try mountedConversation(in: path) { return write(conversation) }
        let files = try messageFiles(in: path)
        guard !files.isEmpty else { throw Failure(description: "\(path): no .eml files in this directory") }
        if isThreadDirectory(path) { return write(ConversationRenderer.render(try files.map(message))) }
        for (index, file) in files.enumerated() {
            write((index > 0 ? "\n" : "") + MessageRenderer.render(try message(at: file)))
        }
    }

    /// The `conversation.txt` of a mount's thread directory: the tree's own rendering, so
    /// `mailfs show` of a thread and `cat` of its conversation give the same text (with the
    /// attachments' paths in the tree, which the `.eml` files alone do not give).
    static func mountedConversation(in directory: String) throws -> String? {
        guard isThreadDirectory(directory) else { return nil }
        let path = URL(fileURLWithPath: directory).appendingPathComponent("conversation.txt").path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return String(decoding: try read(fileDescriptor: descriptor, name: path), as: UTF8.self)
    }

    /// A thread directory of a mount: `…/threads/<thread>`.
    static func isThreadDirectory(_ path: String) -> Bool {
        URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent().lastPathComponent == "threads"
    }

    /// The `.eml` files directly in `directory`, by name (mailfs names start with the date).
    static func messageFiles(in directory: String) throws -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw Failure(description: "\(directory): cannot list: \(error.localizedDescription)")
        }
        return names.filter { $0.hasSuffix(".eml") }.sorted()
            .map { URL(fileURLWithPath: directory).appendingPathComponent($0).path }
    }

    static func message(at path: String) throws -> ConversationMessage {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(description: "\(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let raw = try read(fileDescriptor: descriptor, name: path)
        return ConversationMessage(raw: raw, fileName: URL(fileURLWithPath: path).lastPathComponent,
                                   isUnread: isUnread(path))
    }

    /// Everything up to the end of the file, refused past `maxMessageBytes`.
    static func read(fileDescriptor: Int32, name: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = Glibc.read(fileDescriptor, &chunk, chunk.count)
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "\(name): \(String(cString: strerror(errno)))")
            }
            guard bytes.count + count <= maxMessageBytes else {
                throw Failure(description: "\(name): larger than \(maxMessageBytes / 1024 / 1024) MB, not a message to show")
            }
            bytes += chunk[0..<count]
        }
    }

    /// What a mount says of the message (`user.mailfs.seen` = 0); a file elsewhere is read.
    static func isUnread(_ path: String) -> Bool {
        guard let getxattr else { return false }
        var value = [UInt8](repeating: 0, count: 4)
        let count = getxattr(path, "user.mailfs.seen", &value, value.count)
        return count == 1 && value[0] == UInt8(ascii: "0")
    }

    private typealias GetXattr = @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int) -> Int

    /// getxattr(2), looked up at run time: Swift's Glibc module does not declare it.
    private static let getxattr: GetXattr? = dlsym(dlopen(nil, RTLD_NOW), "getxattr")
        .map { unsafeBitCast($0, to: GetXattr.self) }
}
