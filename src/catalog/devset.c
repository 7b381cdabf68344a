/* devset.c - the devices a run measures against: --device-file entries before a copy of the built-in table, all at the --clock (include/profana/devset.h). */
#include "profana/devset.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profana/dtype.h"
#include "profana/jscan.h"
#include "profana/regfile.h"

/* A device file is a few entries; anything larger is not one. */
#define DEVFILE_MAX_BYTES (4u << 20)

/* The file whole, when it is a regular file of at most DEVFILE_MAX_BYTES: a FIFO or a device
 * (--device-file, PROFANA_DEVICES) is never opened, so it cannot block the run. NULL with
 * err set. */
static char *read_all(const char *path, size_t *len, pf_error *err)
{
    struct stat st;
    int fd = pf_open_regular(path, &st);
    if (fd == -2) {
        pf_fail(err, "%s: is %s, not a device file (a regular file of JSON)", path, pf_file_kind(st.st_mode));
        return NULL;
    }
    FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
    if (!f) {
        if (fd >= 0)
            close(fd);
        pf_fail(err, "%s: cannot read (missing, not a file, or over 4 MiB)", path);
        return NULL;
    }
    char *buf = malloc(DEVFILE_MAX_BYTES + 1);
    size_t n = buf ? fread(buf, 1, DEVFILE_MAX_BYTES + 1, f) : 0;
    int bad = !buf || ferror(f) || n > DEVFILE_MAX_BYTES;
    fclose(f);
    if (bad) {
        free(buf);
        pf_fail(err, "%s: cannot read (missing, not a file, or over 4 MiB)", path);
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}

/* The first NUL in a string or key of the file's text: a zero byte or a \u0000 escape, which cJSON
 * would cut the string at ("H100\u0000x" read as "H100"). Returns its byte offset (len when
 * there is none) and, in *key, the key it is in or under (a key's own text, else the value's
 * key; "" at the top). */
static size_t find_nul(const char *text, size_t len, char *key, size_t cap)
{
    size_t last_key = 0, last_key_len = 0; /* the last string followed by ':' */
    key[0] = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] != '"') /* a zero byte outside a string is no JSON: the parser says where */
            continue;
        size_t start = ++i, nul = len;
        for (; i < len && text[i] != '"'; i++) {
            if (text[i] == 0 && nul == len)
                nul = i;
            if (text[i] != '\\' || i + 1 >= len)
                continue;
            if (nul == len && len - i >= 6 && memcmp(text + i + 1, "u0000", 5) == 0)
                nul = i;
            i++;
        }
        size_t end = i, q = i + 1;
        while (q < len && strchr(" \t\r\n", text[q]) && text[q])
            q++;
        int is_key = q < len && text[q] == ':';
        if (nul != len) {
            size_t from = is_key ? start : last_key, n = is_key ? nul - start : last_key_len;
            snprintf(key, cap, "%.*s", (int)(n < 40 ? n : 40), text + from);
            return nul;
        }
        if (is_key)
            last_key = start, last_key_len = end - start;
    }
    return len;
}

/* Byte offset of the k-th element of the top-level array in text (cJSON keeps no
 * positions): the first non-blank byte after '[' or after a ',' at depth 1. */
static size_t element_offset(const char *text, size_t len, int k)
{
    int depth = 0, in_str = 0, seen = -1;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (in_str) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_str = 0;
            continue;
        }
        if (depth == 1 && seen < k && !isspace((unsigned char)c) && c != ',') {
            if (++seen == k)
                return i;
        }
        if (c == '"')
            in_str = 1;
        else if (c == '[' || c == '{')
            depth++;
        else if (c == ']' || c == '}')
            depth--;
    }
    return 0;
}

/* A number >= 0 (or absent: *out untouched). Returns NULL or why it is not. */
static const char *read_number(const cJSON *v, double *out)
{
    if (!v)
        return NULL;
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0) || v->valuedouble > 1e9)
        return "is not a number from 0 to 1e9";
    *out = v->valuedouble;
    return NULL;
}

/* A key of o that comes again later in o ("name" twice: cJSON would read the first, another
 * reader the last). Known keys only (the callers refuse unknown ones first), so each object
 * has a few members and the check is short. Returns the repeated key or NULL. */
static const char *repeated_key(const cJSON *o)
{
    for (const cJSON *a = o->child; a; a = a->next)
        for (const cJSON *b = a->next; b; b = b->next)
            if (strcmp(a->string, b->string) == 0)
                return a->string;
    return NULL;
}

/* where: the object's name in messages ("\"tflops\"", "\"achievable\".\"tflops\""). */
static const char *read_tflops(const cJSON *v, const char *where, double *peaks, char *why, size_t cap)
{
    if (!v)
        return NULL;
    if (!cJSON_IsObject(v)) {
        snprintf(why, cap, "%s is not an object of DTYPE: TFLOP/s", where);
        return why;
    }
    const cJSON *d;
    unsigned seen = 0;
    cJSON_ArrayForEach(d, v)
    {
        pf_dtype k = strcmp(d->string, "tf32") == 0 ? PF_DT_TF32 : pf_dtype_parse_cli(d->string);
        if (k == PF_DT_UNKNOWN) {
            snprintf(why, cap, "%s has an unknown dtype \"%.40s\"", where, d->string);
            return why;
        }
        if (seen & 1u << k) { /* "bf16" twice, or twice in two spellings */
            snprintf(why, cap, "%s names dtype %s twice (\"%.40s\")", where, pf_dtype_name(k), d->string);
            return why;
        }
        seen |= 1u << k;
        if (read_number(d, &peaks[k])) {
            snprintf(why, cap, "%s.\"%.40s\" is not a number from 0 to 1e9", where, d->string);
            return why;
        }
    }
    return NULL;
}

/* "achievable": {"tflops": {DTYPE: TFLOP/s}, "gbps": GB/s} as tools/measure_peaks.py measured
 * them; returns NULL or why it is not that. */
static const char *read_achievable(const cJSON *v, pf_device_info *e, char *why, size_t cap)
{
    if (!v)
        return NULL;
    if (!cJSON_IsObject(v))
        return "\"achievable\" is not an object of \"tflops\" and \"gbps\"";
    const cJSON *m;
    cJSON_ArrayForEach(m, v)
    {
        if (strcmp(m->string, "tflops") != 0 && strcmp(m->string, "gbps") != 0) {
            snprintf(why, cap, "\"achievable\" has an unknown key \"%.40s\" (tflops, gbps)", m->string);
            return why;
        }
    }
    const char *twice = repeated_key(v);
    if (twice) {
        snprintf(why, cap, "\"achievable\" has the key \"%.40s\" twice", twice);
        return why;
    }
    const char *bad = read_tflops(cJSON_GetObjectItemCaseSensitive(v, "tflops"), "\"achievable\".\"tflops\"",
                                  e->achievable_tflops, why, cap);
    if (bad)
        return bad;
    if (read_number(cJSON_GetObjectItemCaseSensitive(v, "gbps"), &e->achievable_gbps))
        return "\"achievable\".\"gbps\" is not a number from 0 to 1e9";
    return NULL;
}

/* Fills e from one entry of the file; returns NULL or why it is not an entry. */
static const char *read_entry(const cJSON *o, pf_device_info *e, char *why, size_t cap)
{
    /* "measured": when, where and how the achievable figures were measured (date, driver,
     * clocks, torch): kept in the file for people, not read */
    static const char *const keys[] = {"name", "match", "tflops", "gbps", "clock_mhz", "achievable", "measured"};
    if (!cJSON_IsObject(o))
        return "an entry is not an object";
    const cJSON *m;
    cJSON_ArrayForEach(m, o)
    {
        size_t k = 0;
        while (k < sizeof keys / sizeof keys[0] && strcmp(m->string, keys[k]) != 0)
            k++;
        if (k == sizeof keys / sizeof keys[0]) {
            snprintf(why, cap, "unknown key \"%.40s\" (name, match, tflops, gbps, clock_mhz, achievable, measured)",
                     m->string);
            return why;
        }
    }
    const char *twice = repeated_key(o);
    if (twice) {
        snprintf(why, cap, "the key \"%.40s\" twice", twice);
        return why;
    }
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "name");
    const cJSON *match = cJSON_GetObjectItemCaseSensitive(o, "match");
    if (!cJSON_IsString(name) || !*name->valuestring)
        return "an entry without a \"name\" string";
    if (!cJSON_IsString(match) || !*match->valuestring)
        return "an entry without a \"match\" string (a part of the trace's device name)";
    const char *bad = read_tflops(cJSON_GetObjectItemCaseSensitive(o, "tflops"), "\"tflops\"", e->peak_tflops, why, cap);
    if (!bad)
        bad = read_achievable(cJSON_GetObjectItemCaseSensitive(o, "achievable"), e, why, cap);
    if (bad)
        return bad;
    if (read_number(cJSON_GetObjectItemCaseSensitive(o, "gbps"), &e->peak_gbps))
        return "\"gbps\" is not a number from 0 to 1e9";
    if (read_number(cJSON_GetObjectItemCaseSensitive(o, "clock_mhz"), &e->tensor_mhz))
        return "\"clock_mhz\" is not a number from 0 to 1e9";
    e->boost_mhz = e->tensor_mhz;
    e->source = "device file";
    /* what a trace's names get (docs/reliability.md, "Limits"): bytes that are not UTF-8 and control
     * characters (terminal escapes, BEL, carriage returns) become U+FFFD, so that no output
     * (the matched: line, --list-devices, JSON) carries them */
    e->key = pf_json_text_dup(name->valuestring);
    e->match = pf_json_text_dup(match->valuestring);
    return e->key && e->match ? NULL : "out of memory";
}

static int read_file_entries(pf_devset *s, const char *path, pf_error *err)
{
    size_t len = 0;
    char *text = read_all(path, &len, err);
    if (!text)
        return -1;
    char key[48];
    size_t nul = find_nul(text, len, key, sizeof key);
    if (nul < len) {
        free(text);
        return pf_fail(err, "%s: byte %zu: %s%s%s holds a NUL character (\\u0000 or a zero byte): not a name", path,
                       nul, *key ? "\"" : "the text", key, *key ? "\"" : "");
    }
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    int rc = 0;
    if (!root) {
        rc = pf_fail(err, "%s: byte %zu: not JSON", path, end && end >= text ? (size_t)(end - text) : (size_t)0);
    } else if (!cJSON_IsArray(root)) {
        rc = pf_fail(err, "%s: byte %zu: expected a list of device entries", path, (size_t)0);
    } else if ((size_t)(end - text) + strspn(end, " \t\r\n") < len) {
        size_t at = (size_t)(end - text) + strspn(end, " \t\r\n");
        rc = pf_fail(err, "%s: byte %zu: text after the list of device entries", path, at);
    } else {
        int n = cJSON_GetArraySize(root);
        s->entries = calloc((size_t)(n ? n : 1), sizeof *s->entries);
        if (!s->entries)
            rc = pf_fail(err, "out of memory");
        /* the list walked once (cJSON_GetArrayItem(root, i) walks it from the start each time:
         * 80,000 entries took 56 s) */
        const cJSON *o;
        int i = 0;
        cJSON_ArrayForEach(o, root)
        {
            if (rc)
                break;
            char why[160];
            const char *bad = read_entry(o, &s->entries[i], why, sizeof why);
            s->n_file = s->n = i + 1;
            if (bad)
                rc = pf_fail(err, "%s: byte %zu: entry %d: %s", path, element_offset(text, len, i), i + 1, bad);
            i++;
        }
    }
    cJSON_Delete(root);
    free(text);
    return rc;
}

int pf_devset_build(pf_devset *s, const char *path, double clock_mhz, pf_error *err)
{
    memset(s, 0, sizeof *s);
    s->clock_mhz = clock_mhz;
    if (path && read_file_entries(s, path, err)) {
        pf_devset_free(s);
        return -1;
    }
    int n_tab;
    const pf_device_info *tab = pf_devices_table(&n_tab);
    pf_device_info *all = realloc(s->entries, (size_t)(s->n_file + n_tab) * sizeof *all);
    if (!all) {
        pf_devset_free(s);
        return pf_fail(err, "out of memory");
    }
    s->entries = all;
    memcpy(all + s->n_file, tab, (size_t)n_tab * sizeof *all);
    s->n = s->n_file + n_tab;
    for (int i = 0; i < s->n; i++)
        all[i].clock_mhz = clock_mhz;
    return 0;
}

void pf_devset_free(pf_devset *s)
{
    for (int i = 0; i < s->n_file; i++) {
        free((char *)s->entries[i].key);
        free((char *)s->entries[i].match);
    }
    free(s->entries);
    memset(s, 0, sizeof *s);
}

/* The copy in s of a built-in entry (NULL stays NULL). */
static const pf_device_info *copy_of(const pf_devset *s, const pf_device_info *builtin)
{
    int n_tab;
    const pf_device_info *tab = pf_devices_table(&n_tab);
    return builtin ? &s->entries[s->n_file + (builtin - tab)] : NULL;
}

const pf_device_info *pf_devset_lookup(const pf_devset *s, const pf_device_query *q)
{
    if (!s)
        return pf_devices_lookup(q).info;
    for (int i = 0; i < s->n_file; i++)
        if (pf_devices_file_matches(&s->entries[i], q->name))
            return &s->entries[i];
    return copy_of(s, pf_devices_lookup(q).info);
}

static int same_ci(const char *a, const char *b)
{
    while (*a && tolower((unsigned char)*a) == tolower((unsigned char)*b))
        a++, b++;
    return *a == *b;
}

const pf_device_info *pf_devset_find(const pf_devset *s, const char *name)
{
    if (!s)
        return pf_devices_find(name);
    for (int i = 0; i < s->n_file; i++)
        if (same_ci(s->entries[i].key, name))
            return &s->entries[i];
    return copy_of(s, pf_devices_find(name));
}
