/* cpus.h - how many CPUs this process may run on: the default thread count for -j. */
/* layer: util (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_CPUS_H
#define PROFANA_CPUS_H

#include <stddef.h>

/* The CPUs in this process's affinity mask (what taskset, cgroups' cpusets and container
 * limits leave it), or the online CPUs when the mask cannot be read; at least 1. */
size_t pf_cpu_count(void);

#endif
