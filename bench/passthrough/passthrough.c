/* bench/passthrough: the physical limit of FUSE on this kernel, for bench/run.
 *
 * A trivial read-only libfuse3 file system that serves a directory (the benchmark's
 * Maildir) as it is on disk: lstat, readdir, open + pread, nothing else. It uses the same
 * kernel caching mailfs asks for (60 s entry/attribute timeouts, kept page cache, cached
 * listings, READDIRPLUS, no FLUSH, security/ACL xattrs refused once per run), so its times
 * are what any FUSE file system can reach here; mailfs is compared against them.
 *
 * With --no-open it answers OPEN with ENOSYS, which turns OPEN (and RELEASE) off for the
 * whole mount: the kernel then keeps every file's pages across opens without asking, and
 * each READ opens the file by path. That is the least a FUSE file system can pay here at
 * all; mailfs keeps OPEN and FLUSH (docs/DECISIONS.md, "What OPEN costs, measured, and why
 * it stays").
 *
 * With --flush it answers FLUSH (with success) instead of ENOSYS. A file opened without
 * OPEN has no FOPEN_NOFLUSH, so the kernel then sends a FLUSH at every close(): what a
 * file system without OPEN pays if close() must still be able to fail, as mailfs's
 * outbox/ and new messages need.
 *
 *   passthrough [--no-open] [--flush] SOURCE MOUNTPOINT   (foreground, multithreaded; fusermount3 -u ends it)
 */
#define FUSE_USE_VERSION 314
#include <fuse3/fuse.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char source[PATH_MAX];
static int no_open;
static int answers_flush;

static int resolve(const char *path, char out[PATH_MAX])
{
    return snprintf(out, PATH_MAX, "%s%s", source, path) < PATH_MAX ? 0 : -ENAMETOOLONG;
}

static void *pt_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
    (void)conn;
    cfg->entry_timeout = 60;
    cfg->attr_timeout = 60;
    cfg->negative_timeout = 60;
    cfg->use_ino = 1;
    cfg->kernel_cache = 1;
    return NULL;
}

static int pt_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
    char full[PATH_MAX];
    (void)fi;
    if (resolve(path, full)) return -ENAMETOOLONG;
    return lstat(full, st) == 0 ? 0 : -errno;
}

static int pt_opendir(const char *path, struct fuse_file_info *fi)
{
    char full[PATH_MAX];
    if (resolve(path, full)) return -ENAMETOOLONG;
    DIR *dir = opendir(full);
    if (!dir) return -errno;
    fi->fh = (uint64_t)(uintptr_t)dir;
    fi->cache_readdir = 1;
    fi->keep_cache = 1;
    return 0;
}

static int pt_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t offset,
                      struct fuse_file_info *fi, enum fuse_readdir_flags flags)
{
    DIR *dir = (DIR *)(uintptr_t)fi->fh;
    (void)path;
    if (offset != telldir(dir)) seekdir(dir, offset);
    for (struct dirent *entry; (entry = readdir(dir)) != NULL;) {
        struct stat st = {0};
        enum fuse_fill_dir_flags fill_flags = 0;
        if ((flags & FUSE_READDIR_PLUS) && fstatat(dirfd(dir), entry->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
            fill_flags = FUSE_FILL_DIR_PLUS;
        } else {
            st.st_ino = entry->d_ino;
            st.st_mode = (mode_t)entry->d_type << 12;
        }
        if (fill(buf, entry->d_name, &st, telldir(dir), fill_flags)) break;
    }
    return 0;
}

static int pt_releasedir(const char *path, struct fuse_file_info *fi)
{
    (void)path;
    closedir((DIR *)(uintptr_t)fi->fh);
    return 0;
}

static int pt_open(const char *path, struct fuse_file_info *fi)
{
    char full[PATH_MAX];
    if ((fi->flags & O_ACCMODE) != O_RDONLY) return -EROFS;
    if (no_open) return -ENOSYS;
    if (resolve(path, full)) return -ENAMETOOLONG;
    int fd = open(full, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -errno;
    fi->fh = (uint64_t)fd;
    fi->keep_cache = 1;
    fi->noflush = 1;
    return 0;
}

static int pt_read(const char *path, char *buf, size_t size, off_t offset, struct fuse_file_info *fi)
{
    int fd = (int)fi->fh;
    if (no_open) {  /* no handle: each READ opens the file by path */
        char full[PATH_MAX];
        if (resolve(path, full)) return -ENAMETOOLONG;
        if ((fd = open(full, O_RDONLY | O_CLOEXEC)) < 0) return -errno;
    }
    ssize_t got = pread(fd, buf, size, offset);
    int saved = errno;
    if (no_open) close(fd);
    return got < 0 ? -saved : (int)got;
}

static int pt_release(const char *path, struct fuse_file_info *fi)
{
    (void)path;
    close((int)fi->fh);
    return 0;
}

/* Without --flush, ENOSYS: the kernel then never sends FLUSH again. */
static int pt_flush(const char *path, struct fuse_file_info *fi)
{
    (void)path; (void)fi;
    return answers_flush ? 0 : -ENOSYS;
}

static int pt_getxattr(const char *path, const char *name, char *value, size_t size)
{
    (void)path; (void)name; (void)value; (void)size;
    return -EOPNOTSUPP;
}

static const struct fuse_operations operations = {
    .init = pt_init,
    .getattr = pt_getattr,
    .opendir = pt_opendir,
    .readdir = pt_readdir,
    .releasedir = pt_releasedir,
    .open = pt_open,
    .read = pt_read,
    .release = pt_release,
    .getxattr = pt_getxattr,
    .flush = pt_flush,
};

int main(int argc, char *argv[])
{
    int next = 1;
    for (; next < argc && strncmp(argv[next], "--", 2) == 0; next++) {
        if (strcmp(argv[next], "--no-open") == 0) no_open = 1;
        else if (strcmp(argv[next], "--flush") == 0) answers_flush = 1;
        else break;
    }
    if (argc - next != 2 || !realpath(argv[next], source)) {
        fprintf(stderr, "usage: passthrough [--no-open] [--flush] SOURCE MOUNTPOINT\n");
        return 2;
    }
    char *args[] = {argv[0], "-f", "-o", "ro,default_permissions,fsname=passthrough", argv[next + 1], NULL};
    return fuse_main(5, args, &operations, NULL);
}
