/* strtab.h - string interning: one stable copy of each distinct name, so the model can compare pointers. */
#ifndef PROFANA_STRTAB_H
#define PROFANA_STRTAB_H

#include <stddef.h>

typedef struct pf_strtab pf_strtab;

/* Creates an empty table. Returns NULL when memory runs out. */
pf_strtab *pf_strtab_new(void);

/* Frees the table and every string it handed out. NULL is a no-op. */
void pf_strtab_free(pf_strtab *t);

/* Returns the table's copy of s[0..n) (NUL-terminated, owned by the table, valid until
 * pf_strtab_free). Equal strings give the same pointer. NULL when memory runs out. */
const char *pf_strtab_intern(pf_strtab *t, const char *s, size_t n);

/* Number of distinct strings held. */
size_t pf_strtab_count(const pf_strtab *t);

#endif
