// Linux calls on a file's space that glibc declares only with _GNU_SOURCE, which Swift's
// Glibc module does not set: this C target does. Used by the store's pack of raw messages
// (Sources/Store/Storage/MessagePack.swift).
#ifndef MAILFS_CFILESPACE_H
#define MAILFS_CFILESPACE_H

#include <sys/types.h>

/// Gives the blocks of [offset, offset + length) back to the file system, keeping the
/// file's size (fallocate PUNCH_HOLE | KEEP_SIZE). Returns 0, or -1 with errno set.
int mailfs_punch_hole(int fd, off_t offset, off_t length);

/// Starts writing [offset, offset + length) back to disk without waiting for it
/// (sync_file_range WRITE). Returns 0, or -1 with errno set.
int mailfs_start_writeback(int fd, off_t offset, off_t length);

#endif
