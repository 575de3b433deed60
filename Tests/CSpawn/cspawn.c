#define _GNU_SOURCE
#include "cspawn.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

/* PR_SET_PDEATHSIG fires when the *thread* that forked exits, not the process, and Swift's
   concurrency pool retires idle threads: a child forked from one of them would be killed
   seconds later. Every fork therefore happens on one thread that lives as long as the process. */

static pid_t spawn_now(char *const argv[], const char *log_path) {
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid != 0) return pid;
    /* Child: die with the parent, even if the parent is killed outright. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    setpgid(0, 0);
    /* The forking thread may block signals (SIGTERM among them): start the program with none blocked. */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGINT, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    if (log_path != NULL) {
        int fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd >= 0) {
            dup2(fd, STDOUT_FILENO);
            dup2(fd, STDERR_FILENO);
            close(fd);
        }
    }
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0) { dup2(devnull, STDIN_FILENO); close(devnull); }
    execvp(argv[0], argv);
    _exit(127);
}

static pthread_once_t spawner_started = PTHREAD_ONCE_INIT;
static pthread_mutex_t callers = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static struct {
    char *const *argv;
    const char *log_path;
    pid_t pid;
    int error;
    int requested;
    int answered;
} request;

static void *spawner(void *unused) {
    (void)unused;
    pthread_mutex_lock(&lock);
    for (;;) {
        while (!request.requested) pthread_cond_wait(&changed, &lock);
        request.pid = spawn_now(request.argv, request.log_path);
        request.error = errno;
        request.requested = 0;
        request.answered = 1;
        pthread_cond_broadcast(&changed);
    }
    return NULL;
}

static void start_spawner(void) {
    pthread_t thread;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_create(&thread, &attributes, spawner, NULL);
    pthread_attr_destroy(&attributes);
}

pid_t guardian_spawn(char *const argv[], const char *log_path) {
    pthread_once(&spawner_started, start_spawner);
    pthread_mutex_lock(&callers);
    pthread_mutex_lock(&lock);
    request.argv = argv;
    request.log_path = log_path;
    request.answered = 0;
    request.requested = 1;
    pthread_cond_broadcast(&changed);
    while (!request.answered) pthread_cond_wait(&changed, &lock);
    pid_t pid = request.pid;
    int error = request.error;
    pthread_mutex_unlock(&lock);
    pthread_mutex_unlock(&callers);
    if (pid < 0) errno = error;
    return pid;
}
