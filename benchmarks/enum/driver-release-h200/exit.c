// How long a process that touched the CUDA driver takes to exit, and whether a child that keeps
// the driver's files open takes that cost off the parent's wall time.
#include <cuda.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
int main(int argc, char **argv) {
  int level = atoi(argv[1]), fork_child = atoi(argv[2]);
  double t0 = now();
  CUdevice d; CUcontext c; CUdeviceptr p;
  if (cuInit(0)) { fprintf(stderr, "cuInit failed\n"); return 1; }
  if (level >= 1) { cuDeviceGet(&d, 0); cuDevicePrimaryCtxRetain(&c, d); cuCtxSetCurrent(c); cuCtxSynchronize(); }
  if (level >= 2) { cuMemAlloc(&p, 512u << 20); cuMemsetD8(p, 0, 512u << 20); cuCtxSynchronize(); }
  double t1 = now();
  fprintf(stderr, "open %.3f s\n", t1 - t0);
  if (fork_child) {
    pid_t pid = fork();
    if (pid == 0) {
      // Keep only the driver's files; stdout and stderr close so pipes see their end.
      char path[64], target[256];
      for (int fd = 0; fd < 1024; fd++) {
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
        ssize_t n = readlink(path, target, sizeof target - 1);
        if (n < 0) continue;
        target[n] = 0;
        if (strncmp(target, "/dev/nvidia", 11) != 0) close(fd);
      }
      sleep(2);
      _exit(0);
    }
  }
  _exit(0);
}
