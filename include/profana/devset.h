/* devset.h - the devices an analysis measures against: the built-in table, --device-file entries before it, and the --clock the GPUs ran at. */
/* layer: catalog (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_DEVSET_H
#define PROFANA_DEVSET_H

#include "profana/devices.h"
#include "profana/error.h"

/* The entries a run matches trace devices against: the --device-file entries first (in file
 * order), then a copy of the built-in table; every entry carries the --clock (clock_mhz), so
 * pf_peak_flops scales them all. Owns its entries. */
typedef struct pf_devset {
    pf_device_info *entries;
    int n_file;                   /* entries[0 .. n_file) come from the device file */
    int n;
    double clock_mhz;             /* --clock; 0 = the datasheet clocks */
} pf_devset;

/* Builds s from the device file at path (NULL: none) and the clock (0: none). The file is a
 * JSON array of {"name", "match", "tflops": {DTYPE: value}, "gbps", "clock_mhz"} ("name" and
 * "match" non-empty strings, the rest numbers >= 0, every key but those two optional, no
 * other key). Returns 0, or -1 with err set to "PATH: byte N: why" (N where the file stops
 * making sense, or where the bad entry begins); s is then empty. */
int pf_devset_build(pf_devset *s, const char *path, double clock_mhz, pf_error *err);

/* Releases what pf_devset_build allocated; s may be zeroed. */
void pf_devset_free(pf_devset *s);

/* The entry for a device as a trace describes it: the first device-file entry whose match is
 * part of q->name (any case), else the built-in entry pf_devices_lookup finds (its copy in s).
 * s NULL: the built-in table as is. NULL when nothing matches. */
const pf_device_info *pf_devset_lookup(const pf_devset *s, const pf_device_query *q);

/* --device NAME: a device-file entry whose name is NAME (any case), else the built-in entry
 * pf_devices_find names (its copy in s). s NULL: the built-in table. NULL when none. */
const pf_device_info *pf_devset_find(const pf_devset *s, const char *name);

#endif
