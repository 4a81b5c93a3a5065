// Fault injection for the hardening tests, loaded with LD_PRELOAD.
//
// It counts the calls to write, pwrite, fsync, fdatasync and rename that touch a
// file under FAULT_DIR, across the processes of one run (the count so far is kept
// in the file FAULT_STATE), and makes call number FAULT_AT (1-based) fail as
// FAULT_KIND says:
//   ENOSPC  the call fails with ENOSPC (No space left on device)
//   EIO     the call fails with EIO (Input/output error)
//   short   a write or pwrite writes half its bytes and returns that count, and
//           the next write to the same kind of file fails with ENOSPC (a disk
//           filling up mid-write); other calls fail with EIO
// FAULT_AT=0 fails nothing and only counts. FAULT_STATE holds "calls fired".
// Built by the test: cc -shared -fPIC -o faultinject.so faultinject.c -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static ssize_t (*real_write)(int, const void *, size_t);
static ssize_t (*real_pwrite)(int, const void *, size_t, off_t);
static int (*real_fsync)(int);
static int (*real_fdatasync)(int);
static int (*real_rename)(const char *, const char *);

static const char *directory;
static const char *state_path;
static long fault_at;
static const char *kind = "ENOSPC";
static long calls;
static int fired;
static int fail_next_write;

static void load(void) {
  if (real_write) return;
  real_write = dlsym(RTLD_NEXT, "write");
  real_pwrite = dlsym(RTLD_NEXT, "pwrite");
  real_fsync = dlsym(RTLD_NEXT, "fsync");
  real_fdatasync = dlsym(RTLD_NEXT, "fdatasync");
  real_rename = dlsym(RTLD_NEXT, "rename");
  directory = getenv("FAULT_DIR");
  state_path = getenv("FAULT_STATE");
  const char *at = getenv("FAULT_AT");
  fault_at = at ? atol(at) : 0;
  if (getenv("FAULT_KIND")) kind = getenv("FAULT_KIND");
  if (state_path) {
    FILE *f = fopen(state_path, "r");
    if (f) {
      if (fscanf(f, "%ld %d", &calls, &fired) != 2) calls = fired = 0;
      fclose(f);
    }
  }
}

static void save(void) {
  if (!state_path) return;
  char text[64];
  int n = snprintf(text, sizeof text, "%ld %d\n", calls, fired);
  int fd = open(state_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return;
  real_write(fd, text, (size_t)n);
  close(fd);
}

static int under_directory(const char *path) {
  return directory && path && strncmp(path, directory, strlen(directory)) == 0;
}

static int watched_fd(int fd) {
  if (!directory) return 0;
  char link[64], path[4096];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(link, path, sizeof path - 1);
  if (n <= 0) return 0;
  path[n] = 0;
  return under_directory(path);
}

// Counts a watched call; returns 1 when it is the one to fail.
static int due(void) {
  calls += 1;
  int now = !fired && calls == fault_at;
  if (now) fired = 1;
  save();
  return now;
}

static int error_code(void) { return strcmp(kind, "EIO") == 0 || strcmp(kind, "short") == 0 ? EIO : ENOSPC; }

ssize_t write(int fd, const void *buffer, size_t count) {
  load();
  if (!watched_fd(fd)) return real_write(fd, buffer, count);
  if (fail_next_write) {
    fail_next_write = 0;
    errno = ENOSPC;
    return -1;
  }
  if (!due()) return real_write(fd, buffer, count);
  if (strcmp(kind, "short") == 0 && count > 1) {
    fail_next_write = 1;
    return real_write(fd, buffer, count / 2);
  }
  errno = strcmp(kind, "EIO") == 0 ? EIO : ENOSPC;
  return -1;
}

ssize_t pwrite(int fd, const void *buffer, size_t count, off_t offset) {
  load();
  if (!watched_fd(fd) || !due()) return real_pwrite(fd, buffer, count, offset);
  if (strcmp(kind, "short") == 0 && count > 1) {
    fail_next_write = 1;
    return real_pwrite(fd, buffer, count / 2, offset);
  }
  errno = strcmp(kind, "EIO") == 0 ? EIO : ENOSPC;
  return -1;
}

int fsync(int fd) {
  load();
  if (!watched_fd(fd) || !due()) return real_fsync(fd);
  errno = error_code();
  return -1;
}

int fdatasync(int fd) {
  load();
  if (!watched_fd(fd) || !due()) return real_fdatasync(fd);
  errno = error_code();
  return -1;
}

int rename(const char *from, const char *to) {
  load();
  if (!(under_directory(from) || under_directory(to)) || !due()) return real_rename(from, to);
  errno = error_code();
  return -1;
}
