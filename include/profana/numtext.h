/* numtext.h - exact decimal text of numbers, as written into JSON: shortest round-trip doubles and fixed-point integers. */
/* layer: util (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_NUMTEXT_H
#define PROFANA_NUMTEXT_H

#include <stddef.h>
#include <stdint.h>

/* Writes the exact decimal text of units / 10^decimals (0 <= decimals <= 18) into buf, which
 * must hold PF_NUM_TEXT_MAX bytes: "0.004718592" for 4718592 and 9, trailing zeros dropped.
 * For |units| < 2^53 it reads back as exactly the double units / 1e`decimals` (both are the
 * double nearest the same number), without printf's cost. Returns its length. */
size_t pf_decimal_text(char *buf, int64_t units, int decimals);

/* Writes the shortest decimal text that reads back as exactly v (at most 17 significant
 * digits, a valid JSON number) into buf, which must hold PF_NUM_TEXT_MAX bytes. Returns its
 * length, or 0 (buf "") when v is infinite or NaN, which JSON cannot hold. */
#define PF_NUM_TEXT_MAX 32
size_t pf_num_text(char *buf, double v);

#endif
