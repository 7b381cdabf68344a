/* test_crc32.c - unit tests of pf_crc32: the check value of the CRC catalogue, and zlib's crc32 on every length and alignment around the folding's block sizes. */
#include <stdlib.h>
#include <zlib.h>

#include "check.h"
#include "profana/crc32.h"

/* Bytes from a fixed linear congruential sequence: the same data on every run. */
static void fill(unsigned char *b, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        b[i] = (unsigned char)(seed >> 16);
    }
}

static void test_known(void)
{
    CHECK("crc32 of nothing is 0", pf_crc32(0, NULL, 0) == 0);
    /* The catalogue's check value of CRC-32/ISO-HDLC (gzip's). */
    CHECK("crc32 of \"123456789\" is cbf43926", pf_crc32(0, "123456789", 9) == 0xCBF43926u);
    unsigned char zeros[4096] = {0};
    CHECK("crc32 of 4096 zero bytes equals zlib's", pf_crc32(0, zeros, sizeof zeros) == crc32(0, zeros, sizeof zeros));
}

/* Every length up to 300 at every alignment up to 16: the head, the 64-byte loop, the 16-byte
 * folds and the tail all take part, each alone and together. */
static void test_lengths(void)
{
    unsigned char buf[300 + 16];
    fill(buf, sizeof buf, 7);
    int bad = 0;
    for (size_t off = 0; off < 16; off++)
        for (size_t n = 0; n <= 300; n++)
            bad += pf_crc32(0, buf + off, n) != (uint32_t)crc32(0, buf + off, (uInt)n);
    CHECK("crc32 equals zlib's for lengths 0..300 at 16 alignments", bad == 0);
}

/* Streaming: the CRC of pieces of odd sizes, carried from one to the next, equals the CRC of
 * the whole (how the reader checks a gzip member as it inflates it). */
static void test_pieces(void)
{
    size_t n = (3 << 20) + 77;
    unsigned char *b = malloc(n);
    if (!b) {
        CHECK("memory for the stream test", 0);
        return;
    }
    fill(b, n, 42);
    uint32_t whole = (uint32_t)crc32(0, b, (uInt)n), crc = 0;
    for (size_t at = 0, step = 1; at < n; at += step, step = step * 3 % 100003 + 1)
        crc = pf_crc32(crc, b + at, at + step > n ? n - at : step);
    CHECK("crc32 of 3 MB equals zlib's", pf_crc32(0, b, n) == whole);
    CHECK("crc32 carried over pieces of varied sizes equals the whole's", crc == whole);
    free(b);
}

int main(void)
{
    test_known();
    test_lengths();
    test_pieces();
    CHECK_DONE();
}
