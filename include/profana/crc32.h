/* crc32.h - the gzip CRC-32, folded with carry-less multiplication where the processor has it. */
/* layer: util (docs/HACKING.md, "Where things are") */
#ifndef PROFANA_CRC32_H
#define PROFANA_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* The CRC-32 of gzip (the value zlib's crc32() gives) of crc's data followed by buf[0, len):
 * pf_crc32(0, NULL, 0) is 0, and pf_crc32(pf_crc32(0, a, n), b, m) is the CRC of a then b.
 * Uses PCLMULQDQ on x86-64 processors that have it, several times faster than zlib's table
 * code; elsewhere it is zlib's. Cannot fail; buf may be unaligned. */
uint32_t pf_crc32(uint32_t crc, const void *buf, size_t len);

#endif
