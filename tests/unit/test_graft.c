/* test_graft.c - graph captures grafted onto replays (pf_trace_graft_captures, pf_capture_paths): a capture named many times is loaded once; a capture no replay matches is freed at once, only those a replay took ops from stay adopted; replays mapped one for one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "profana/trace.h"

static char dir[] = "/tmp/pf_graft_XXXXXX";

static const char *file(const char *name)
{
    static char buf[4][256];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

/* A capture of one graph: an aten::mm (External id 1) launching kernel `kernel`. */
static void write_capture(const char *name, const char *kernel)
{
    FILE *f = fopen(file(name), "w");
    fprintf(f, "{\"traceEvents\": [\n"
               "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaStreamBeginCapture\", \"pid\": 1, \"tid\": 1, "
               "\"ts\": 1000, \"dur\": 1, \"args\": {\"correlation\": 1}},\n"
               "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1, \"ts\": 1002, "
               "\"dur\": 6, \"args\": {\"External id\": 1, \"Input Dims\": [[64, 32], [32, 16]], \"Input type\": "
               "[\"float\", \"float\"]}},\n"
               "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, "
               "\"ts\": 1003, \"dur\": 2, \"args\": {\"External id\": 1, \"correlation\": 2, \"kernel\": \"%s\"}}]}\n",
            kernel);
    fclose(f);
}

/* Two replays of the graph that runs kernel k0. */
static void write_replay(void)
{
    FILE *f = fopen(file("rep.json"), "w");
    fputs("{\"traceEvents\": [\n", f);
    for (int r = 0; r < 2; r++)
        fprintf(f, "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaGraphLaunch\", \"pid\": 1, \"tid\": 1, "
                   "\"ts\": %d, \"dur\": 2, \"args\": {\"correlation\": %d}},\n"
                   "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k0\", \"pid\": 0, \"tid\": 7, \"ts\": %d, \"dur\": 4, "
                   "\"args\": {\"device\": 0, \"stream\": 7, \"correlation\": %d}}%s\n",
                1000 + 10 * r, 100 + r, 1003 + 10 * r, 100 + r, r ? "" : ",");
    fputs("]}\n", f);
    fclose(f);
}

static void free_paths(char **p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(p[i]);
    free(p);
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    write_capture("match.json", "k0");
    write_capture("other1.json", "x1");
    write_capture("other2.json", "x2");
    write_replay();
    /* match.json three times (once through a hard link), then two captures of other kernels */
    link(file("match.json"), file("again.json"));
    FILE *f = fopen(file("execution_details.json"), "w");
    fputs("[{\"file\": \"match.json\"}, {\"file\": \"other1.json\"}, {\"file\": \"match.json\"}, "
          "{\"file\": \"again.json\"}, {\"file\": \"other2.json\"}]",
          f);
    fclose(f);

    char **paths;
    size_t n;
    pf_error err;
    CHECK("the capture paths", pf_capture_paths(dir, &paths, &n, &err) == 0);
    CHECK("5 entries naming 3 files: 3 paths", n == 3);
    CHECK_STR("the first named first", n ? strrchr(paths[0], '/') + 1 : NULL, "match.json");
    CHECK_STR("then other1.json", n > 1 ? strrchr(paths[1], '/') + 1 : NULL, "other1.json");
    CHECK_STR("then other2.json", n > 2 ? strrchr(paths[2], '/') + 1 : NULL, "other2.json");

    pf_load_opts o = {.jobs = 1, .launches = 1};
    pf_trace *rep, *caps[3];
    CHECK("the replay loads", pf_trace_load_opts(file("rep.json"), NULL, &rep, &err) == 0);
    size_t loaded = 0;
    while (loaded < n && loaded < 3 && pf_trace_load_opts(paths[loaded], &o, &caps[loaded], &err) == 0)
        loaded++;
    CHECK("the captures load", loaded == n);
    size_t mapped = 0;
    CHECK("grafted", pf_trace_graft_captures(rep, caps, loaded, &mapped, &err) == 0);
    CHECK("both replayed kernels mapped", mapped == 2);
    CHECK("only the capture a replay took ops from stays adopted", rep->n_adopted == 1 && rep->adopted[0] == caps[0]);
    int ops = 0;
    for (size_t i = 0; i < rep->n_acts; i++)
        ops += rep->acts[i].op >= 0 && strcmp(rep->ops[rep->acts[i].op].name, "aten::mm") == 0;
    CHECK("each replayed kernel has its aten::mm", ops == 2);
    pf_trace_free(rep); /* frees the adopted capture; the sanitizer build checks the others were freed */
    free_paths(paths, n);
    const char *names[] = {"match.json", "again.json", "other1.json", "other2.json", "rep.json", "execution_details.json"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        unlink(file(names[i]));
    rmdir(dir);
    CHECK_DONE();
}
