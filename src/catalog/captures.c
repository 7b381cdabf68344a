/* captures.c - tells vLLM's and SGLang's capture list (execution_details.json) from a trace by its first bytes. */
#include "profana/captures.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "profana/regfile.h"

int pf_capture_list_is(const char *path)
{
    assert(path != NULL);
    char buf[4096];
    FILE *f = pf_fopen_regular(path, NULL); /* a FIFO read once already is never opened again */
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return strstr(buf, "\"batch_size\"") && strstr(buf, "\"file\"") && !strstr(buf, "\"ph\"");
}
