import FUSE
import Foundation

/// Calls Glibc does not export to Swift (<sys/xattr.h>, renameat2), found with dlsym so the
/// tests make the real syscalls. RTLD_DEFAULT is the null handle on glibc.
enum LibcExtras {
    typealias Getxattr = @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>,
                                         UnsafeMutableRawPointer?, Int) -> Int
    typealias Listxattr = @convention(c) (UnsafePointer<CChar>, UnsafeMutablePointer<CChar>?, Int) -> Int
    typealias Setxattr = @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>,
                                         UnsafeRawPointer?, Int, Int32) -> Int32
    typealias Removexattr = @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>) -> Int32
    typealias Renameat2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>,
                                          UInt32) -> Int32

    static func function<F>(_ name: String, as type: F.Type) throws -> F {
        guard let symbol = dlsym(nil, name) else { throw FSError(ENOSYS) }
        return unsafeBitCast(symbol, to: type)
    }

    /// getxattr(2) into a buffer of `size` bytes (0: the size probe). Returns the result and errno.
    static func getxattr(_ path: String, _ name: String, size: Int) throws -> (Int, Int32, [UInt8]) {
        let call = try function("getxattr", as: Getxattr.self)
        var buffer = [UInt8](repeating: 0, count: size)
        errno = 0
        let result = buffer.withUnsafeMutableBytes { call(path, name, size == 0 ? nil : $0.baseAddress, size) }
        return (result, result < 0 ? errno : 0, Array(buffer.prefix(max(result, 0))))
    }

    static func listxattr(_ path: String, size: Int) throws -> (Int, Int32) {
        let call = try function("listxattr", as: Listxattr.self)
        var buffer = [CChar](repeating: 0, count: size)
        errno = 0
        let result = buffer.withUnsafeMutableBufferPointer { call(path, size == 0 ? nil : $0.baseAddress, size) }
        return (result, result < 0 ? errno : 0)
    }

    static func setxattr(_ path: String, _ name: String, _ value: String) throws -> Int32 {
        let call = try function("setxattr", as: Setxattr.self)
        let bytes = Array(value.utf8)
        return errnoOf { bytes.withUnsafeBytes { call(path, name, $0.baseAddress, bytes.count, 0) } }
    }

    static func removexattr(_ path: String, _ name: String) throws -> Int32 {
        let call = try function("removexattr", as: Removexattr.self)
        return errnoOf { call(path, name) }
    }

    static func renameNoReplace(_ from: String, _ to: String) throws -> Int32 {
        let call = try function("renameat2", as: Renameat2.self)
        return errnoOf { call(AT_FDCWD, from, AT_FDCWD, to, 1 /* RENAME_NOREPLACE */) }
    }
}
