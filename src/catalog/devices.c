/* devices.c - matching of trace device names to the GPU datasheet table (device_table.c), and lookups in it. */
#include "device_table.h"

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* cudaDeviceProp.name and hipDeviceProp_t.name are char[256]; nothing real is longer. */
#define NAME_CAP 256

#define GIB 1073741824.0

#define DEVICE_COUNT pf_device_table_len

/* Names a runtime reports when it does not know the product: ROCm without a current
 * amdgpu.ids gives "AMD Radeon Graphics" or "" (docs/devices.md E24 E26 E27). Such a name is
 * resolved among the entries whose aliases start with vendor_prefix (normalised). */
typedef struct generic_name {
    const char *name;
    const char *vendor_prefix;
} generic_name;

static const generic_name generic_names[] = {
    {"", "amd"},
    {"AMD Radeon Graphics", "amd"},
};

/* A name reduced to [a-z0-9], remembering where each kept character was in the original,
 * so that a match can be checked against the separators the normalisation dropped. */
typedef struct norm_name {
    char text[NAME_CAP];
    int orig_pos[NAME_CAP];
    int len;
} norm_name;

static int is_alnum_ascii(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static char lower_ascii(char c)
{
    return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/* Returns 0 when the name does not fit: no real device name is that long, and a
 * truncated name could fake an end-of-name match. */
static int normalise(const char *s, norm_name *out)
{
    out->len = 0;
    for (int i = 0; s[i] != '\0'; i++) {
        if (!is_alnum_ascii(s[i]))
            continue;
        if (out->len >= NAME_CAP - 1)
            return 0;
        out->text[out->len] = lower_ascii(s[i]);
        out->orig_pos[out->len] = i;
        out->len++;
    }
    out->text[out->len] = '\0';
    return 1;
}

static int same_normalised(const char *a, const char *b)
{
    norm_name na, nb;
    return normalise(a, &na) && normalise(b, &nb) && strcmp(na.text, nb.text) == 0;
}

/* A separator (or either end) must surround the match in the original name, so that
 * "NVIDIA A10" does not match inside "NVIDIA A100..." nor "NVIDIA L4" inside "NVIDIA L40S". */
static int is_token_match(const norm_name *name, int start, int len)
{
    int end = start + len;
    int starts_ok = start == 0 || name->orig_pos[start] != name->orig_pos[start - 1] + 1;
    int ends_ok = end == name->len || name->orig_pos[end] != name->orig_pos[end - 1] + 1;
    return starts_ok && ends_ok;
}

static int contains_token(const norm_name *name, const char *alias)
{
    int len = (int)strlen(alias);
    if (len == 0 || len > name->len)
        return 0;
    for (int start = 0; start + len <= name->len; start++) {
        if (memcmp(name->text + start, alias, (size_t)len) == 0 && is_token_match(name, start, len))
            return 1;
    }
    return 0;
}

/* Length of the longest alias of e found in name as a whole token; 0 when none is. */
static int longest_alias_match(const pf_device_info *e, const norm_name *name)
{
    int best = 0;
    for (size_t i = 0; i < ARRAY_LEN(e->aliases) && e->aliases[i]; i++) {
        norm_name alias;
        if (normalise(e->aliases[i], &alias) && alias.len > best && contains_token(name, alias.text))
            best = alias.len;
    }
    return best;
}

static int has_mem_range(const pf_device_info *e)
{
    return e->mem_gib_max > 0;
}

static int mem_in_range(const pf_device_info *e, double mem_gib)
{
    return mem_gib >= e->mem_gib_min && mem_gib <= e->mem_gib_max;
}

/* A trace with more SMs than the full part cannot be that part; fewer is a MIG slice
 * or a compute partition of it, so that is kept. */
static int too_many_sms(const pf_device_info *e, int num_sms)
{
    return e->num_sms > 0 && num_sms > e->num_sms;
}

/* Memory only rules a part out where the name alone cannot tell it from a sibling:
 * a MIG slice of a lone part reports less memory and must still match. */
static int excluded(const pf_device_info *e, int num_sms, double mem_gib, int has_sibling)
{
    if (too_many_sms(e, num_sms))
        return 1;
    return has_sibling && mem_gib > 0 && has_mem_range(e) && !mem_in_range(e, mem_gib);
}

static int tie_score(const pf_device_info *e, int num_sms, double mem_gib)
{
    int score = 0;
    if (e->num_sms > 0 && num_sms > 0 && e->num_sms == num_sms)
        score += 2;
    if (mem_gib > 0 && has_mem_range(e) && mem_in_range(e, mem_gib))
        score += 1;
    return score;
}

/* The trace's properties, ready for comparing with entries. */
typedef struct props {
    int num_sms;
    double mem_gib; /* 0 = unknown */
    int cc;         /* 0 = unknown */
} props;

/* Picks among the entries whose longest matching alias has the winning length; info NULL
 * when all are ruled out or two remain equally good. */
static pf_device_match pick_candidate(const int *lens, int best_len, const props *p)
{
    int n_candidates = 0;
    for (int i = 0; i < DEVICE_COUNT; i++)
        n_candidates += lens[i] == best_len;

    pf_device_match m = {NULL, PF_DEVMATCH_NONE, NULL};
    int best_score = -1, tied = 0;
    for (int i = 0; i < DEVICE_COUNT; i++) {
        const pf_device_info *e = &pf_device_table[i];
        if (lens[i] != best_len || excluded(e, p->num_sms, p->mem_gib, n_candidates > 1))
            continue;
        int score = tie_score(e, p->num_sms, p->mem_gib);
        if (score > best_score) {
            m.info = e;
            best_score = score;
            tied = 0;
        } else if (score == best_score) {
            tied = 1;
        }
    }
    if (tied || !m.info)
        return (pf_device_match){NULL, PF_DEVMATCH_NONE, NULL};
    m.basis = n_candidates > 1 ? PF_DEVMATCH_NAME_PROPS : PF_DEVMATCH_NAME;
    return m;
}

/* The longest alias length of each entry found in name; returns the longest overall. */
static int alias_lengths(const norm_name *name, int *lens)
{
    int best_len = 0;
    for (int i = 0; i < DEVICE_COUNT; i++) {
        lens[i] = longest_alias_match(&pf_device_table[i], name);
        if (lens[i] > best_len)
            best_len = lens[i];
    }
    return best_len;
}

static const char *generic_vendor(const char *name)
{
    for (size_t i = 0; i < ARRAY_LEN(generic_names); i++) {
        if (same_normalised(name, generic_names[i].name))
            return generic_names[i].vendor_prefix;
    }
    return NULL;
}

static int from_vendor(const pf_device_info *e, const char *vendor_prefix)
{
    norm_name alias;
    return e->aliases[0] && normalise(e->aliases[0], &alias) &&
           strncmp(alias.text, vendor_prefix, strlen(vendor_prefix)) == 0;
}

/* Two entries whose every figure the analysis uses is the same: whichever of them the
 * device is, its percentages and bounds come out the same. */
static int same_figures(const pf_device_info *a, const pf_device_info *b)
{
    for (int k = 0; k < PF_DT_COUNT; k++)
        if (a->peak_tflops[k] != b->peak_tflops[k])
            return 0;
    return a->peak_gbps == b->peak_gbps && a->boost_mhz == b->boost_mhz && a->tensor_mhz == b->tensor_mhz;
}

/* The entry's product word: the first word of its first alias that holds a digit
 * ("a100" in "NVIDIA A100-SXM4-40GB", "mi300x", "4090"), normalised; 0 when none. */
static int product_word(const pf_device_info *e, char *out, size_t cap)
{
    const char *s = e->aliases[0];
    size_t n = 0;
    int digit = 0;
    for (size_t i = 0;; i++) {
        char c = s[i];
        if (is_alnum_ascii(c)) {
            if (n + 1 < cap)
                out[n++] = lower_ascii(c);
            digit |= c >= '0' && c <= '9';
            continue;
        }
        if (digit && n > 0) {
            out[n] = '\0';
            return 1;
        }
        if (c == '\0')
            return 0;
        n = 0;
    }
}

/* The full part's SM count, a memory range holding the trace's memory and, when both
 * sides know it, the same cc: what a properties match asks of an entry. */
static int fits_properties(const pf_device_info *e, const props *p)
{
    if (e->num_sms != p->num_sms)
        return 0;
    if (p->cc > 0 && e->cc > 0 && p->cc != e->cc)
        return 0;
    return !(p->mem_gib > 0 && has_mem_range(e) && !mem_in_range(e, p->mem_gib));
}

/* Among the entries `want` accepts, the one fitting the properties; several fitting
 * entries give no match unless all have the first one's figures (it is then kept, the
 * next is its twin). */
static pf_device_match match_fitting(int (*want)(const pf_device_info *, const void *), const void *arg,
                                     const props *p, pf_devmatch_basis basis)
{
    pf_device_match m = {NULL, PF_DEVMATCH_NONE, NULL};
    if (p->num_sms <= 0)
        return m;
    for (int i = 0; i < DEVICE_COUNT; i++) {
        const pf_device_info *e = &pf_device_table[i];
        if (!want(e, arg) || !fits_properties(e, p))
            continue;
        if (!m.info) {
            m.info = e;
        } else if (!same_figures(m.info, e)) {
            return (pf_device_match){NULL, PF_DEVMATCH_NONE, NULL};
        } else if (!m.twin) {
            m.twin = e;
        }
    }
    if (m.info)
        m.basis = basis;
    return m;
}

static int want_vendor(const pf_device_info *e, const void *vendor_prefix)
{
    return from_vendor(e, (const char *)vendor_prefix);
}

/* The entry's product word is a whole word of the trace's name. */
static int want_product(const pf_device_info *e, const void *name)
{
    char word[NAME_CAP];
    return product_word(e, word, sizeof word) && contains_token((const norm_name *)name, word);
}

/* A name no alias matches: only its product word (an "A100" in a board name), with the
 * full SM count and a known memory, identifies a part, so that a cut-down sibling such as
 * an L40 never passes for an L40S and a MIG slice is not resolved this way. */
static pf_device_match match_by_product(const norm_name *name, const props *p)
{
    if (p->mem_gib <= 0)
        return (pf_device_match){NULL, PF_DEVMATCH_NONE, NULL};
    return match_fitting(want_product, name, p, PF_DEVMATCH_PROPS);
}

const pf_device_info *pf_devices_table(int *count)
{
    if (count)
        *count = DEVICE_COUNT;
    return pf_device_table;
}

pf_device_match pf_devices_lookup(const pf_device_query *q)
{
    const char *s = q->name ? q->name : "";
    props p = {q->num_sms, q->total_mem_bytes > 0 ? (double)q->total_mem_bytes / GIB : 0.0, q->cc};
    const char *vendor = generic_vendor(s);
    /* Without a product name only the full CU count and memory identify a part; a
     * partition or a pair with different figures (MI350X / MI355X) gives none. */
    if (vendor)
        return match_fitting(want_vendor, vendor, &p, PF_DEVMATCH_GENERIC);
    norm_name norm;
    int lens[PF_DEVICE_TABLE_CAP];
    if (!normalise(s, &norm) || norm.len == 0)
        return (pf_device_match){NULL, PF_DEVMATCH_NONE, NULL};
    int best_len = alias_lengths(&norm, lens);
    return best_len ? pick_candidate(lens, best_len, &p) : match_by_product(&norm, &p);
}

const pf_device_info *pf_devices_match(const char *name, int num_sms, int64_t total_mem_bytes)
{
    pf_device_query q = {name, num_sms, total_mem_bytes, 0};
    return pf_devices_lookup(&q).info;
}

/* "SMs" or, for AMD parts, "CUs". */
static const char *unit_word(const pf_device_info *e)
{
    return from_vendor(e, "amd") ? "CUs" : "SMs";
}

const char *pf_devices_label(const pf_device_query *q, const pf_device_info *info, char *buf, size_t cap)
{
    if (cap == 0)
        return buf;
    if (info && info->match) {
        snprintf(buf, cap, "%s (device file; %s)", info->key,
                 pf_devices_file_matches(info, q->name) ? "its match is in the name" : "given by --device");
        return buf;
    }
    pf_device_match m = pf_devices_lookup(q);
    const char *key = info ? info->key : "unknown";
    const char *mem = q->total_mem_bytes > 0 ? " and memory" : "";
    /* by key: an analysis may hold a copy of the entry (pf_devset, --clock) */
    int given = info && (!m.info || strcmp(m.info->key, info->key) != 0);
    if (!info || given || m.basis == PF_DEVMATCH_NAME) {
        snprintf(buf, cap, "%s%s", key, given ? " (given by --device)" : "");
        return buf;
    }
    char twin[64] = "";
    if (m.twin)
        snprintf(twin, sizeof twin, " or %s", m.twin->key);
    const char *how = m.basis == PF_DEVMATCH_NAME_PROPS ? "name shared; by "
                      : m.basis == PF_DEVMATCH_GENERIC  ? "generic name; by "
                                                     : "by ";
    snprintf(buf, cap, "%s%s (%s%s%s%s)", key, twin, how, unit_word(info), mem, m.twin ? "; same figures" : "");
    return buf;
}

int pf_devices_file_matches(const pf_device_info *e, const char *name)
{
    if (!e || !e->match || !name)
        return 0;
    for (const char *p = name; *p; p++) {
        size_t k = 0;
        while (e->match[k] && tolower((unsigned char)p[k]) == tolower((unsigned char)e->match[k]))
            k++;
        if (!e->match[k])
            return 1;
    }
    return 0;
}

static int normalises_to(const char *s, const char *wanted)
{
    norm_name n;
    return normalise(s, &n) && strcmp(n.text, wanted) == 0;
}

static int entry_named(const pf_device_info *e, const char *wanted)
{
    if (normalises_to(e->key, wanted))
        return 1;
    for (size_t i = 0; i < ARRAY_LEN(e->aliases) && e->aliases[i]; i++) {
        if (normalises_to(e->aliases[i], wanted))
            return 1;
    }
    return 0;
}

/* GPU-to-GPU link bandwidth per entry key. Kept apart from the table (device_table.c), because only a
 * few products have a published figure here yet; an entry without one is unknown ('-').
 * Vendors quote NVLink as the sum of both directions; a collective's bus bandwidth is one
 * direction's (nccl-tests doc/PERFORMANCE.md: "The measurement is of a unidirectional
 * bandwidth"), so the peak is half the quoted figure. */
typedef struct device_link {
    const char *key;
    double gbps;               /* per direction, all links together */
    const char *source;
    int mesh_links;            /* a direct mesh (xGMI) of this many links, one per peer, gbps
                                  split evenly over them; 0: switched (NVLink) */
} device_link;

static const device_link device_links[] = {
    {"H100 SXM", 450, "NVLink 4, 900 GB/s bidirectional per GPU (18 links): nvidia.com/en-us/data-center/technologies/hopper-architecture; half per direction", 0},
    {"H200", 450, "NVLink 4, 900 GB/s bidirectional per GPU (18 links): nvidia.com/en-us/data-center/technologies/hopper-architecture; half per direction", 0},
    /* AMD quotes xGMI (Infinity Fabric) per link, both directions together: 7 links, one to
     * each peer of an 8-GPU node (a full mesh, no switch) */
    {"MI300X", 448, "xGMI (4th-gen Infinity Fabric), 7 links x 128 GB/s bidirectional (896 GB/s peer-to-peer): AMD Instinct MI300X data sheet, amd.com/content/dam/amd/en/documents/instinct-tech-docs/data-sheets/amd-instinct-mi300x-data-sheet.pdf; half per direction, one link per peer", 7},
    {"MI325X", 448, "xGMI (4th-gen Infinity Fabric), 7 links x 128 GB/s bidirectional (896 GB/s peer-to-peer): amd.com/en/products/accelerators/instinct/mi300/mi325x.html; half per direction, one link per peer", 7},
    {"MI355X", 537.6, "xGMI (4th-gen Infinity Fabric), 7 links x 153.6 GB/s bidirectional (1075.2 GB/s peer-to-peer): amd.com/en/products/accelerators/instinct/mi350/mi355x.html; half per direction, one link per peer", 7},
};

int pf_devices_link(const pf_device_info *info, double *gbps, const char **source)
{
    for (size_t i = 0; info && !info->match && i < sizeof device_links / sizeof device_links[0]; i++) {
        if (strcmp(info->key, device_links[i].key) == 0) {
            *gbps = device_links[i].gbps;
            *source = device_links[i].source;
            return 0;
        }
    }
    return -1;
}

int pf_devices_link_for(const pf_device_info *info, int n, double *gbps, const char **source)
{
    if (n < 2)
        return -1;
    for (size_t i = 0; info && !info->match && i < sizeof device_links / sizeof device_links[0]; i++) {
        const device_link *l = &device_links[i];
        if (strcmp(info->key, l->key) != 0)
            continue;
        int used = l->mesh_links && n - 1 < l->mesh_links ? n - 1 : l->mesh_links;
        *gbps = l->mesh_links ? l->gbps * used / l->mesh_links : l->gbps;
        *source = l->source;
        return 0;
    }
    return -1;
}

const pf_device_info *pf_devices_find(const char *name)
{
    norm_name wanted;
    if (!name || !normalise(name, &wanted) || wanted.len == 0)
        return NULL;
    for (int i = 0; i < DEVICE_COUNT; i++) {
        if (entry_named(&pf_device_table[i], wanted.text))
            return &pf_device_table[i];
    }
    return NULL;
}
