/* devices.h - the GPU device table (datasheet peaks) and matching of trace device names to it. */
/* layer: catalog (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_DEVICES_H
#define PROFANA_DEVICES_H

#include <stddef.h>
#include <stdint.h>
#include "profana/dtype.h"

/* One product. Peaks are dense (no sparsity), per device as PyTorch enumerates it.
 * A peak of 0 means the hardware has no such path or the vendor gives no figure. */
typedef struct pf_device_info {
    const char *key;              /* short name, unique: "H100 SXM", "MI300X" */
    const char *aliases[6];       /* name strings the product reports, NULL-terminated */
    int num_sms;                  /* SMs / CUs of the full part; 0 = unknown */
    int cc;                       /* computeMajor * 10 + computeMinor (sm_80 = 80, gfx942 = 94); 0 = unknown */
    double mem_gib_min, mem_gib_max; /* totalGlobalMem range in GiB telling variants apart; 0,0 = any */
    double peak_tflops[PF_DT_COUNT]; /* indexed by pf_dtype; TOP/s for int8 */
    double peak_gbps;             /* DRAM bandwidth, decimal GB/s */
    double mem_gb;                /* marketing memory size */
    double boost_mhz;             /* max SM clock */
    double tensor_mhz;            /* clock the tensor peaks are computed at (== boost when one clock) */
    const char *source;           /* where the figures come from (DEVICES.md keys and URLs) */
    double cache_mb;              /* last-level cache in front of DRAM (NVIDIA L2, AMD Infinity
                                     Cache) in MiB, as the driver reports it; 0 = not known.
                                     A call's bytes that fit in it may be served without DRAM
                                     (pf_dram_pct) */
    double clock_mhz;             /* the clock the GPU ran at (--clock): every compute peak is
                                     scaled by clock_mhz / tensor_mhz (pf_peak_flops); 0 = the
                                     datasheet's clock. 0 in the built-in table */
    const char *match;            /* a --device-file entry: the part of the trace's device name
                                     it matches (any case); NULL for the built-in table */
    unsigned derived;             /* figures derived (units x rate x clock, or sparse / 2 of a
                                     figure the vendor gives only with sparsity and no dense
                                     twin), not printed by the vendor: bit PF_DEV_DERIVED(dtype)
                                     per peak, PF_DEV_DERIVED_BW for bandwidth */
    const char *note;             /* a caveat --list-devices prints as a footnote (sources that
                                     differ, secondary sources only); NULL if none */
    double achievable_tflops[PF_DT_COUNT]; /* measured achievable peaks (a --device-file from
                                     tools/measure_peaks.py); 0 = not measured */
    double achievable_gbps;       /* measured device-to-device copy bandwidth; 0 = not measured */
} pf_device_info;

#define PF_DEV_DERIVED(d) (1u << (d))
#define PF_DEV_DERIVED_BW (1u << PF_DT_COUNT)

/* The whole table; *count receives the number of entries. Static storage. */
const pf_device_info *pf_devices_table(int *count);

/* A device as a trace's deviceProperties describe it; 0 (or NULL/"" for name) = unknown. */
typedef struct pf_device_query {
    const char *name;
    int num_sms;
    int64_t total_mem_bytes;
    int cc;                       /* computeMajor * 10 + computeMinor */
} pf_device_query;

/* What a match rests on, for an honest label. */
typedef enum pf_devmatch_basis {
    PF_DEVMATCH_NONE = 0,            /* no entry */
    PF_DEVMATCH_NAME,                /* one entry's alias is in the name */
    PF_DEVMATCH_NAME_PROPS,          /* several entries share the alias; SMs / memory chose */
    PF_DEVMATCH_PROPS,               /* the name is no alias: its product word, full SM count, memory (cc) */
    PF_DEVMATCH_GENERIC,             /* a generic name ("AMD Radeon Graphics", ""): CU count, memory (cc) */
} pf_devmatch_basis;

typedef struct pf_device_match {
    const pf_device_info *info;   /* NULL when nothing matches */
    pf_devmatch_basis basis;
    const pf_device_info *twin;   /* another entry the properties fit as well, with the very same
                                     figures (A100 SXM / PCIe 40GB; MI210 / MI250 GCD); NULL if none */
} pf_device_match;

/* Finds the entry for a device as a trace describes it. Matching normalises case and
 * punctuation and prefers the longest alias contained in the name as whole words; ties
 * are broken with numSms and memory. A name that is no alias (a board name such as
 * "NVIDIA A100-PG509-200") matches an entry whose product word ("A100") it contains, whose
 * full SM count it reports and whose memory range holds its memory; a generic name matches
 * on CU count and memory alone. By properties, several fitting entries give no match
 * unless they carry identical figures (then info is the first, twin the next). A cc
 * that differs from the entry's rules a properties match out. Never a guess. */
pf_device_match pf_devices_lookup(const pf_device_query *q);

/* pf_devices_lookup without a cc; returns only the entry (NULL when none matches). */
const pf_device_info *pf_devices_match(const char *name, int num_sms, int64_t total_mem_bytes);

/* Writes into buf (cap bytes, truncated) how `info`, the entry an analysis uses for the
 * device q describes, was found: "KEY" for a plain name match; otherwise the key with how,
 * e.g. "A100 SXM 40GB or A100 PCIe 40GB (by SMs and memory; same figures)", or
 * "KEY (given by --device)" when info is not what q matches (compared by key: info may be a
 * copy, pf_devset); a --device-file entry reads "KEY (device file; ...)". Returns buf. */
const char *pf_devices_label(const pf_device_query *q, const pf_device_info *info, char *buf, size_t cap);

/* The GPU-to-GPU link of an entry: peak bandwidth per direction in decimal GB/s (what
 * nccl-tests' bus bandwidth is measured against: its figures are unidirectional) and where
 * the figure comes from. Returns 0 with *gbps and *source set, or -1 (both untouched) when
 * the table has no link figure for the entry (or info is NULL). */
int pf_devices_link(const pf_device_info *info, double *gbps, const char **source);

/* pf_devices_link for a collective over a group of n GPUs: on a switched fabric (NVLink with
 * NVSwitch) every GPU reaches any peer at its whole link bandwidth, whatever n; on a direct
 * mesh (AMD xGMI: one link to each of 7 peers in an 8-GPU node) a group of n uses at most
 * n - 1 of its links, so the peak is that many links' worth. Returns 0 with *gbps, *source,
 * or -1 as pf_devices_link (also when n < 2). */
int pf_devices_link_for(const pf_device_info *info, int n, double *gbps, const char **source);

/* 1 when e is a --device-file entry whose match is part of name, in any case. */
int pf_devices_file_matches(const pf_device_info *e, const char *name);

/* Finds an entry by the user's --device NAME: its key or any alias, normalised.
 * Returns NULL when none matches. */
const pf_device_info *pf_devices_find(const char *name);

#endif
