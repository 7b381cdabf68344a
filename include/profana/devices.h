/* devices.h - the GPU device table (datasheet peaks) and matching of trace device names to it. */
/* layer: catalog (README: Where things are) */
#ifndef PROFANA_DEVICES_H
#define PROFANA_DEVICES_H

#include <stdint.h>
#include "profana/dtype.h"

/* One product. Peaks are dense (no sparsity), per device as PyTorch enumerates it.
 * A peak of 0 means the hardware has no such path or the vendor gives no figure. */
typedef struct pf_device_info {
    const char *key;              /* short name, unique: "H100 SXM", "MI300X" */
    const char *aliases[6];       /* name strings the product reports, NULL-terminated */
    int num_sms;                  /* SMs / CUs of the full part; 0 = unknown */
    double mem_gib_min, mem_gib_max; /* totalGlobalMem range in GiB telling variants apart; 0,0 = any */
    double peak_tflops[PF_DT_COUNT]; /* indexed by pf_dtype; TOP/s for int8 */
    double peak_gbps;             /* DRAM bandwidth, decimal GB/s */
    double mem_gb;                /* marketing memory size */
    double boost_mhz;             /* max SM clock */
    double tensor_mhz;            /* clock the tensor peaks are computed at (== boost when one clock) */
    const char *source;           /* where the figures come from (DEVICES.md keys and URLs) */
} pf_device_info;

/* The whole table; *count receives the number of entries. Static storage. */
const pf_device_info *pf_devices_table(int *count);

/* Finds the entry for a device as a trace describes it. name may be NULL or "";
 * num_sms and total_mem_bytes are 0 when unknown. Matching normalises case and
 * punctuation, prefers the longest alias contained in the name, and breaks ties
 * (and generic names such as "AMD Radeon Graphics") with numSms and memory.
 * Returns NULL when no entry matches: never a guess. */
const pf_device_info *pf_devices_match(const char *name, int num_sms, int64_t total_mem_bytes);

/* Finds an entry by the user's --device NAME: its key or any alias, normalised.
 * Returns NULL when none matches. */
const pf_device_info *pf_devices_find(const char *name);

#endif
