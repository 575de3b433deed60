#ifndef GUARDIAN_CSPAWN_H
#define GUARDIAN_CSPAWN_H
#include <sys/types.h>

/// Starts `argv[0]` (searched in PATH) with stdout/stderr appended to `log_path` (or inherited when NULL).
/// The child receives SIGKILL when the spawning process dies, so a crashed test never leaves it behind
/// (children are forked from one thread that lives as long as the process: see cspawn.c).
/// Returns the child's pid, or -1 with errno set.
pid_t guardian_spawn(char *const argv[], const char *log_path);

#endif
