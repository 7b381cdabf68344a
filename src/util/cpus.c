/* cpus.c - the number of CPUs this process may run on, so that -j's default never asks for more threads than it gets. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "profana/cpus.h"

#include <sched.h>
#include <unistd.h>

size_t pf_cpu_count(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return (size_t)CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (size_t)n : 1;
}
