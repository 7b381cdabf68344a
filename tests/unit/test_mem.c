/* test_mem.c - unit tests of pf_grow (capacities, contents kept, overflow refused), pf_zalloc (zeroed, overflow refused) and pf_pages_drop (only whole pages inside the range go back). */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "profana/mem.h"

static void test_grow(void)
{
    int *a = NULL;
    size_t cap = 0;
    CHECK("growing nothing to 0 elements allocates nothing", pf_grow((void **)&a, &cap, 0, sizeof *a, 16) == 0 && !a && cap == 0);
    CHECK("the first capacity is the one asked for", pf_grow((void **)&a, &cap, 1, sizeof *a, 16) == 0 && a && cap == 16);
    for (int i = 0; i < 16; i++)
        a[i] = i * 7;
    CHECK("a need within the capacity changes nothing", pf_grow((void **)&a, &cap, 16, sizeof *a, 16) == 0 && cap == 16);
    CHECK("one more doubles the capacity", pf_grow((void **)&a, &cap, 17, sizeof *a, 16) == 0 && cap == 32);
    CHECK("a larger need doubles until it fits (100 -> 128)", pf_grow((void **)&a, &cap, 100, sizeof *a, 16) == 0 && cap == 128);
    int kept = 1;
    for (int i = 0; i < 16; i++)
        kept &= a[i] == i * 7;
    CHECK("the elements survive growing", kept);
    size_t c0 = 0;
    char *z = NULL;
    CHECK("a first capacity of 0 still grows (to 1, then doubling)",
          pf_grow((void **)&z, &c0, 3, 1, 0) == 0 && z && c0 == 4);
    free(z);
    int *before = a;
    CHECK("a need whose byte size overflows size_t is refused", pf_grow((void **)&a, &cap, SIZE_MAX / 2, sizeof *a, 16) == -1);
    CHECK("a need past SIZE_MAX/2 elements is refused", pf_grow((void **)&a, &cap, SIZE_MAX, 1, 16) == -1);
    CHECK("a refused growth leaves the array and its capacity alone", a == before && cap == 128 && a[15] == 105);
    free(a);
}

static void test_zalloc(void)
{
    size_t n = 3 << 20; /* 24 MB of int64: a fresh mapping, as the large tables get */
    int64_t *a = pf_zalloc(n, sizeof *a);
    size_t nonzero = 0;
    for (size_t i = 0; a && i < n; i += 511)
        nonzero += a[i] != 0;
    CHECK("zalloc: 3 Mi int64, every sampled one zero", a != NULL && nonzero == 0 && a[n - 1] == 0);
    free(a);
    CHECK("zalloc: n * elem past SIZE_MAX refused", pf_zalloc(SIZE_MAX / 8 + 1, 8) == NULL);
    unsigned char *z = pf_zalloc(0, 16);
    CHECK("zalloc: zero elements is a valid pointer", z != NULL);
    free(z);
}

static void test_pages_drop(void)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *m = mmap(NULL, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        CHECK("an anonymous mapping for the page test", 0);
        return;
    }
    memset(m, 0xAB, 4 * page);
    /* An anonymous private page handed back reads as zeros: which pages went is visible. */
    pf_pages_drop((const char *)m + 100, (const char *)m + 3 * page + 5);
    CHECK("the partial first page is kept", m[100] == 0xAB && m[page - 1] == 0xAB);
    CHECK("the whole pages inside go back", m[page] == 0 && m[2 * page] == 0 && m[3 * page - 1] == 0);
    CHECK("the partial last page is kept", m[3 * page] == 0xAB && m[3 * page + 5] == 0xAB);
    memset(m, 0xAB, 4 * page);
    pf_pages_drop((const char *)m + 10, (const char *)m + page + 10);
    CHECK("a range holding no whole page drops nothing", m[10] == 0xAB && m[page] == 0xAB && m[page + 9] == 0xAB);
    pf_pages_drop((const char *)m + page, (const char *)m + 2 * page);
    CHECK("a page-aligned range drops exactly its page", m[page - 1] == 0xAB && m[page] == 0 && m[2 * page] == 0xAB);
    munmap(m, 4 * page);
}

int main(void)
{
    test_grow();
    test_zalloc();
    test_pages_drop();
    CHECK_DONE();
}
