// A power-loss recorder for the hardening tests, loaded with LD_PRELOAD (the
// sibling of faultinject.c), in the spirit of LazyFS and ALICE.
//
// Every call below that touches a file of the directory POWERCUT_DIR (or that
// directory itself) is passed on to the C library and then, once it returned,
// recorded in the file POWERCUT_LOG, across the processes and threads of one run
// (one write with O_APPEND per record, so records never interleave). From that
// log the test rebuilds the directory as a power cut after any record would
// leave it: a file's data only through its last fsync or fdatasync, a name only
// if its directory was synced since it was made.
//
// One record: a line of tab-separated fields, OP INODE OFFSET LENGTH PATH [PATH2],
// then LENGTH bytes of data for `write` and `out`:
//   create   open(O_CREAT) made the file PATH (it did not exist before)
//   write    LENGTH bytes written at OFFSET (write, pwrite; the data follows)
//   truncate the file cut (or extended) to OFFSET bytes
//   sync     fsync or fdatasync of a file
//   dirsync  fsync of the directory PATH
//   rename   PATH renamed to PATH2
//   unlink   PATH removed
//   out      LENGTH bytes written to standard output (with POWERCUT_STDOUT=1):
//            what a program acknowledges, in order with the rest
// Built by the test: cc -shared -fPIC -o powercut.so powercut.c -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

static ssize_t (*real_write)(int, const void *, size_t);
static ssize_t (*real_pwrite)(int, const void *, size_t, off_t);
static ssize_t (*real_pwrite64)(int, const void *, size_t, off_t);
static int (*real_fsync)(int);
static int (*real_fdatasync)(int);
static int (*real_ftruncate)(int, off_t);
static int (*real_ftruncate64)(int, off_t);
static int (*real_rename)(const char *, const char *);
static int (*real_renameat)(int, const char *, int, const char *);
static int (*real_unlink)(const char *);
static int (*real_open)(const char *, int, ...);
static int (*real_open64)(const char *, int, ...);
static int (*real_openat)(int, const char *, int, ...);
static int (*real_openat64)(int, const char *, int, ...);

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static char directory[4096];
static size_t directory_length;
static const char *log_path;
static int log_fd = -1;
static int log_stdout;

static void setup(void) {
  real_write = dlsym(RTLD_NEXT, "write");
  real_pwrite = dlsym(RTLD_NEXT, "pwrite");
  real_pwrite64 = dlsym(RTLD_NEXT, "pwrite64");
  real_fsync = dlsym(RTLD_NEXT, "fsync");
  real_fdatasync = dlsym(RTLD_NEXT, "fdatasync");
  real_ftruncate = dlsym(RTLD_NEXT, "ftruncate");
  real_ftruncate64 = dlsym(RTLD_NEXT, "ftruncate64");
  real_rename = dlsym(RTLD_NEXT, "rename");
  real_renameat = dlsym(RTLD_NEXT, "renameat");
  real_unlink = dlsym(RTLD_NEXT, "unlink");
  real_open = dlsym(RTLD_NEXT, "open");
  real_open64 = dlsym(RTLD_NEXT, "open64");
  real_openat = dlsym(RTLD_NEXT, "openat");
  real_openat64 = dlsym(RTLD_NEXT, "openat64");
  const char *dir = getenv("POWERCUT_DIR");
  if (dir && realpath(dir, directory)) directory_length = strlen(directory);
  log_path = getenv("POWERCUT_LOG");
  log_stdout = getenv("POWERCUT_STDOUT") && strcmp(getenv("POWERCUT_STDOUT"), "1") == 0;
}

static void load(void) { pthread_once(&once, setup); }

static int watched_path(const char *path) {
  if (!directory_length || !path) return 0;
  return strncmp(path, directory, directory_length) == 0 &&
         (path[directory_length] == 0 || path[directory_length] == '/');
}

// The absolute path a descriptor leads to; 0 when it is not watched.
static int watched_fd(int fd, char *path, size_t size) {
  if (!directory_length) return 0;
  char link[64];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, path, size - 1);
  if (n <= 0) return 0;
  path[n] = 0;
  return watched_path(path);
}

// An absolute form of a path given to a call (relative to the working directory).
static void absolute(const char *path, char *out, size_t size) {
  if (path[0] == '/') {
    snprintf(out, size, "%s", path);
    return;
  }
  char cwd[4096];
  if (!getcwd(cwd, sizeof cwd)) cwd[0] = 0;
  snprintf(out, size, "%s/%s", cwd, path);
}

static unsigned long long inode_of_fd(int fd) {
  struct stat info;
  return fstat(fd, &info) == 0 ? (unsigned long long)info.st_ino : 0;
}

static unsigned long long inode_of_path(const char *path) {
  struct stat info;
  return stat(path, &info) == 0 ? (unsigned long long)info.st_ino : 0;
}

static void record(const char *op, unsigned long long inode, long long offset, size_t length, const char *path,
                   const char *path2, const void *data) {
  if (!log_path) return;
  int saved = errno;
  pthread_mutex_lock(&lock);
  if (log_fd < 0) log_fd = real_open(log_path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (log_fd >= 0) {
    char head[9000];
    int n = snprintf(head, sizeof head, "%s\t%llu\t%lld\t%zu\t%s%s%s\n", op, inode, offset, length, path,
                     path2 ? "\t" : "", path2 ? path2 : "");
    size_t total = (size_t)n + (data ? length : 0);
    char *buffer = malloc(total);
    if (buffer) {
      memcpy(buffer, head, (size_t)n);
      if (data && length) memcpy(buffer + n, data, length);
      size_t done = 0;
      while (done < total) {
        ssize_t w = real_write(log_fd, buffer + done, total - done);
        if (w <= 0) break;
        done += (size_t)w;
      }
      free(buffer);
    }
  }
  pthread_mutex_unlock(&lock);
  errno = saved;
}

ssize_t write(int fd, const void *buffer, size_t count) {
  load();
  ssize_t n = real_write(fd, buffer, count);
  char path[4096];
  if (n > 0 && fd == 1 && log_stdout) {
    record("out", 0, 0, (size_t)n, "-", NULL, buffer);
  } else if (n > 0 && watched_fd(fd, path, sizeof path)) {
    off_t end = lseek(fd, 0, SEEK_CUR);
    record("write", inode_of_fd(fd), (long long)end - n, (size_t)n, path, NULL, buffer);
  }
  return n;
}

static ssize_t positioned(ssize_t (*call)(int, const void *, size_t, off_t), int fd, const void *buffer,
                          size_t count, off_t offset) {
  ssize_t n = call(fd, buffer, count, offset);
  char path[4096];
  if (n > 0 && watched_fd(fd, path, sizeof path)) {
    record("write", inode_of_fd(fd), (long long)offset, (size_t)n, path, NULL, buffer);
  }
  return n;
}

ssize_t pwrite(int fd, const void *buffer, size_t count, off_t offset) {
  load();
  return positioned(real_pwrite, fd, buffer, count, offset);
}

ssize_t pwrite64(int fd, const void *buffer, size_t count, off_t offset) {
  load();
  return positioned(real_pwrite64, fd, buffer, count, offset);
}

static int synced(int (*call)(int), int fd) {
  int result = call(fd);
  char path[4096];
  if (result == 0 && watched_fd(fd, path, sizeof path)) {
    struct stat info;
    int is_directory = fstat(fd, &info) == 0 && S_ISDIR(info.st_mode);
    record(is_directory ? "dirsync" : "sync", inode_of_fd(fd), 0, 0, path, NULL, NULL);
  }
  return result;
}

int fsync(int fd) {
  load();
  return synced(real_fsync, fd);
}

int fdatasync(int fd) {
  load();
  return synced(real_fdatasync, fd);
}

static int truncated(int (*call)(int, off_t), int fd, off_t length) {
  int result = call(fd, length);
  char path[4096];
  if (result == 0 && watched_fd(fd, path, sizeof path)) {
    record("truncate", inode_of_fd(fd), (long long)length, 0, path, NULL, NULL);
  }
  return result;
}

int ftruncate(int fd, off_t length) {
  load();
  return truncated(real_ftruncate, fd, length);
}

int ftruncate64(int fd, off_t length) {
  load();
  return truncated(real_ftruncate64, fd, length);
}

static void renamed(const char *from, const char *to) {
  char a[4096], b[4096];
  absolute(from, a, sizeof a);
  absolute(to, b, sizeof b);
  if (watched_path(a) || watched_path(b)) record("rename", inode_of_path(b), 0, 0, a, b, NULL);
}

int rename(const char *from, const char *to) {
  load();
  int result = real_rename(from, to);
  if (result == 0) renamed(from, to);
  return result;
}

int renameat(int fromfd, const char *from, int tofd, const char *to) {
  load();
  int result = real_renameat(fromfd, from, tofd, to);
  // Only paths relative to the working directory (or absolute) are followed.
  if (result == 0 && (fromfd == AT_FDCWD || from[0] == '/') && (tofd == AT_FDCWD || to[0] == '/')) renamed(from, to);
  return result;
}

int unlink(const char *path) {
  load();
  char a[4096];
  absolute(path, a, sizeof a);
  int result = real_unlink(path);
  if (result == 0 && watched_path(a)) record("unlink", 0, 0, 0, a, NULL, NULL);
  return result;
}

// open and its variants: a file that open(O_CREAT) made is recorded once it is open.
static int opened(int fd, const char *path, int existed) {
  char a[4096];
  if (fd >= 0 && !existed && watched_fd(fd, a, sizeof a)) record("create", inode_of_fd(fd), 0, 0, a, NULL, NULL);
  return fd;
}

static int exists(int dirfd, const char *path, int flags) {
  return (flags & O_CREAT) == 0 || faccessat(dirfd, path, F_OK, 0) == 0;
}

int open(const char *path, int flags, ...) {
  load();
  mode_t mode = 0;
  if (flags & (O_CREAT | O_TMPFILE)) {
    va_list list;
    va_start(list, flags);
    mode = (mode_t)va_arg(list, int);
    va_end(list);
  }
  int existed = exists(AT_FDCWD, path, flags);
  return opened(real_open(path, flags, mode), path, existed);
}

int open64(const char *path, int flags, ...) {
  load();
  mode_t mode = 0;
  if (flags & (O_CREAT | O_TMPFILE)) {
    va_list list;
    va_start(list, flags);
    mode = (mode_t)va_arg(list, int);
    va_end(list);
  }
  int existed = exists(AT_FDCWD, path, flags);
  return opened(real_open64(path, flags, mode), path, existed);
}

int openat(int dirfd, const char *path, int flags, ...) {
  load();
  mode_t mode = 0;
  if (flags & (O_CREAT | O_TMPFILE)) {
    va_list list;
    va_start(list, flags);
    mode = (mode_t)va_arg(list, int);
    va_end(list);
  }
  int existed = exists(dirfd, path, flags);
  return opened(real_openat(dirfd, path, flags, mode), path, existed);
}

int openat64(int dirfd, const char *path, int flags, ...) {
  load();
  mode_t mode = 0;
  if (flags & (O_CREAT | O_TMPFILE)) {
    va_list list;
    va_start(list, flags);
    mode = (mode_t)va_arg(list, int);
    va_end(list);
  }
  int existed = exists(dirfd, path, flags);
  return opened(real_openat64(dirfd, path, flags, mode), path, existed);
}
