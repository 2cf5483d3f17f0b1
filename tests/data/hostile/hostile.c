/* A hostile student's program in C, for zerosum's sandbox tests (written for them).
   hostile MODE [ARG]: each mode tries one escape and prints what it managed, one line
   each ("read PATH", "wrote PATH", "traced PID", ...); the tests assert none succeeds. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static void try_read(const char *path) {
    char buf[64];
    int fd = open(path, O_RDONLY);
    if (fd >= 0 && read(fd, buf, sizeof buf) > 0) printf("read %s\n", path);
    if (fd >= 0) close(fd);
}

static void try_write(const char *path) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0 && write(fd, "pwned\n", 6) == 6) printf("wrote %s\n", path);
    if (fd >= 0) close(fd);
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    const char *arg = argc > 2 ? argv[2] : "";
    if (!strcmp(mode, "read")) {  /* arg: a file outside its folder */
        try_read("/etc/shadow");
        try_read("/root/.bashrc");
        try_read(arg);
    } else if (!strcmp(mode, "write")) {  /* arg: a path outside its folder */
        try_write("/root/pwned-c");
        try_write("/usr/pwned-c");
        try_write("/pwned-c");
        try_write(arg);
    } else if (!strcmp(mode, "daemon")) {  /* children left behind, in a session of their own */
        for (int i = 0; i < 3; i++) {
            if (fork() == 0) {
                setsid();
                if (fork() == 0) {
                    execlp("sleep", "sleep", "302.25", (char *)NULL);
                    _exit(1);
                }
                _exit(0);
            }
        }
        while (wait(NULL) > 0) {}
        printf("answered\n");
    } else if (!strcmp(mode, "ptrace")) {  /* arg: the caller's pid */
        pid_t pid = (pid_t)atoi(arg);
        if (ptrace(PTRACE_ATTACH, pid, NULL, NULL) == 0) printf("traced %d\n", pid);
        if (kill(pid, 0) == 0) printf("signalled %d\n", pid);
    } else if (!strcmp(mode, "forkbomb")) {
        int made = 0;
        for (int i = 0; i < 2000; i++) {
            pid_t p = fork();
            if (p == 0) { pause(); _exit(0); }
            if (p > 0) made++;
        }
        printf("made %d\n", made);
    } else if (!strcmp(mode, "shm")) {  /* 2 GB of shared anonymous memory, touched */
        size_t size = (size_t)2 << 30;
        char *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (m != MAP_FAILED) {
            memset(m, 1, size);
            printf("mapped 2 GB\n");
        }
    }
    fflush(stdout);
    return 0;
}
