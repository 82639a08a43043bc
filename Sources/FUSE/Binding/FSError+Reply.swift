import Foundation

extension FSError {
    /// The errno sent to the kernel for this error: the one mapping from our errors to errno.
    ///
    /// - 0 or a negative value would read as success (or garble the reply): EIO.
    /// - libfuse rejects values of 1000 and more: EIO.
    /// - ENOSYS is special to the kernel: for flush, fsync, xattrs and create it turns the
    ///   operation off for the whole mount, forever. One file's "not supported" must not do
    ///   that, so it goes out as ENOTSUP.
    var replyCode: Int32 {
        guard errno > 0, errno < 1000 else { return EIO }
        return errno == ENOSYS ? ENOTSUP : errno
    }
}
