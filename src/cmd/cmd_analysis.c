/* cmd_analysis.c - `--analysis FILE DTYPE`: loads and analyses the trace, writes the --summary, --plot and --report files, then prints the view (src/render/analysis_view.c; --group module: src/render/modules_view.c; --group critical-path: src/render/critical_path_view.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profana/captures.h"
#include "profana/critical_path.h"
#include "profana/modules.h"
#include "profana/sequences.h"
#include "profana/cli.h"
#include "profana/outfile.h"
#include "profana/parallel.h"
#include "profana/report.h"
#include "profana/timings.h"

/* --group sequence without --top: the sequences with the most time shown per device. */
#define PF_SEQ_ROWS 20

/* --group critical-path without --top: the ops and kernels with the most time on the path. */
#define PF_CP_ITEMS 10

/* Devices named one line each; past them one line counts the rest (65,536 unknown device
 * ids are one screen, not 65,536 lines), as the loader's notes of undeclared devices do. */
#define UNKNOWN_NAMED 8

/* One stderr line per device the table does not know, saying how to name it. */
static void warn_unknown_devices(const pf_analysis *an)
{
    int n = 0;
    for (int i = 0; i < an->n_devices; i++)
        if (!an->devices[i].info && n++ < UNKNOWN_NAMED)
            fprintf(stderr, "profana: device %d (\"%s\"): unknown device: pass --device NAME or --device-file FILE "
                            "(profana --list-devices); no percent of peak is shown\n",
                    an->devices[i].device->id, an->devices[i].device->name);
    if (n > UNKNOWN_NAMED)
        fprintf(stderr, "profana: %d more unknown devices: no percent of peak is shown for them\n", n - UNKNOWN_NAMED);
}

/* A file that holds no event of a trace: nothing to analyse, and "no GPU activity" with exit
 * 0 would read as a trace of an idle GPU. Prints the error and returns 1 for such a file. */
static int not_a_trace(const pf_trace *t)
{
    if (t->n_acts || t->n_host || t->n_ops || t->n_steps || t->n_unknown_gpu || !pf_capture_list_is(t->path))
        return 0;
    char msg[1024];
    snprintf(msg, sizeof msg,
             "%s: byte 0: a vLLM " PF_CAPTURE_LIST_NAME " (the CUDA graphs captured, by batch size), not a trace: "
             "analyse the replay trace and pass this file, or its folder, with --graph-capture",
             t->path);
    pf_cli_error(msg);
    return 1;
}

/* --summary OUT: what --ranks keeps of this trace (include/profana/ranks.h), into the
 * temporary file *o (still unnamed, so that a signal leaves nothing), which the caller
 * commits with the other outputs (commit_all) or aborts; standard output ("-") is the output
 * itself, flushed here. Returns 0, or -1 with err set and *o closed. */
static int write_summary(const pf_cli *cli, const pf_trace *t, pf_outfile *o, pf_error *err)
{
    pf_rank_summary s;
    memset(o, 0, sizeof *o);
    if (pf_rank_summarize(t, cli->pos[0], 1, &s, err))
        return -1;
    int rc = pf_outfile_open(o, cli->summary, err);
    if (rc == 0 && pf_view_rank_summary(o->f, &s)) {
        rc = pf_outfile_write_error(o, err);
        pf_outfile_abort(o);
    } else if (rc == 0 && strcmp(cli->summary, "-") == 0) {
        rc = pf_outfile_commit(o, err);
    } else if (rc == 0 && (fflush(o->f) != 0 || ferror(o->f))) {
        rc = pf_outfile_write_error(o, err); /* a full disk found before anything is printed */
        pf_outfile_abort(o);
    }
    pf_rank_summary_clear(&s);
    return rc;
}

/* The summary and the --plot/--report files together: every one written, flushed and
 * closed under a temporary name first, then all renamed into place, so that a write error
 * (a full disk, ulimit -f) changes no target. Returns an exit status. */
static int commit_all(pf_outfile *summary, pf_plot_files *files)
{
    pf_error err;
    if (pf_plots_finish(files, &err) || (summary->f && pf_outfile_finish(summary, &err))) {
        pf_plots_abort(files);
        pf_outfile_abort(summary);
        return pf_cli_error(err.msg);
    }
    if (pf_plots_commit(files, &err)) {
        pf_outfile_abort(summary);
        return pf_cli_error(err.msg);
    }
    if (summary->finished && pf_outfile_commit(summary, &err))
        return pf_cli_error(err.msg);
    return PF_EXIT_OK;
}

/* --summary OUT reads the trace a second time and must not overwrite it. Returns 0 or an
 * exit status. */
static int check_summary_target(const pf_cli *cli)
{
    if (!cli->summary)
        return 0;
    int rc = pf_cli_need_rereadable(cli->pos[0], "--summary");
    if (rc == 0 && pf_same_file(cli->summary, cli->pos[0]))
        rc = pf_cli_usage_error("--summary %s is the input trace; write to another file", cli->summary);
    return rc;
}

/* The analysis of t into *an, with its collectives. Returns 0, or -1 with err set. */
static int analyse(const pf_cli *cli, const pf_trace *t, pf_analysis **an, pf_error *err)
{
    /* The idle gaps are kept only where the timeline draws them: set here, where the plots are
     * chosen, so that every caller of this command (the fuzz target too) gets them. */
    pf_analysis_opts o = cli->an;
    o.idle_gaps = 1; /* the timeline draws them, the headline's diagnosis reads them */
    if (pf_group_is_view(o.group)) /* the module and sequence views read the activities, not rows */
        o.group = PF_GROUP_KERNEL;
    return pf_analysis_run(t, &o, an, err) || pf_analysis_collectives(*an, cli->pos[0], err) ? -1 : 0;
}

/* What stderr says before the tables: the analysis's notes, the devices the table does not
 * know, and an analysis of no device. */
static void warn_before_tables(const pf_cli *cli, const pf_trace *t, const pf_analysis *an)
{
    for (int i = 0; i < an->n_notes; i++) /* the analysis's own (an Inductor module's parse past its budget) */
        fprintf(stderr, "profana: note: %s\n", an->notes[i]);
    if (!cli->an.force_device)
        warn_unknown_devices(an);
    if (an->n_devices == 0 && t->n_acts > 0 && cli->an.phase != PF_PHASE_NONE) {
        /* --phase left nothing: the trace has GPU work, none of it in that phase */
        fprintf(stderr, "profana: %s: no GPU activity in phase %s (--phase all: the Phases line gives each phase's share)\n",
                t->path, pf_phase_name(cli->an.phase));
    } else if (an->n_devices == 0) {
        fprintf(stderr, "profana: %s: the trace has no GPU activity (no kernel, memcpy or memset events)\n", t->path);
    }
}

/* What run_analysis makes, freed (or put in place) by its one exit, run_end. */
typedef struct analysis_run {
    pf_trace *t;
    pf_analysis *an;
    pf_outfile summary;        /* committed with the --plot and --report files, or not at all */
    pf_plot_files files;
    int printed;               /* the view ran: its result is view_rc */
    int view_rc;
} analysis_run;

/* The one exit of run_analysis: the trace and analysis freed; once the view printed, and
 * standard output went out whole, the output files put in place, else removed. */
static int run_end(analysis_run *r, int rc, pf_timings *tm)
{
    pf_analysis_free(r->an);
    pf_trace_free(r->t);
    if (r->printed) {
        pf_timings_lap(tm, "free", 1);
        rc = r->view_rc ? pf_cli_error("out of memory") : pf_cli_stdout_status();
    }
    if (r->printed && rc == 0)
        return commit_all(&r->summary, &r->files);
    pf_plots_abort(&r->files);
    pf_outfile_abort(&r->summary);
    return rc;
}

/* Load, analyse, write the output files, print: each step only when the one before went
 * well, every way out through run_end. */
static int run_analysis(const pf_cli *cli, pf_timings *tm)
{
    analysis_run r;
    pf_error err;
    memset(&r, 0, sizeof r);
    /* text and Markdown show the trace's notes after the headline (pf_view_opts.trace_notes) */
    pf_view_opts v = pf_cli_view_opts(cli);
    v.trace_notes = cli->format == PF_FMT_TEXT || cli->format == PF_FMT_MD;
    int rc = check_summary_target(cli);
    if (rc)
        goto done;
    if (!(r.t = pf_cli_load_notes(cli, cli->pos[0], !v.trace_notes)) || not_a_trace(r.t)) {
        rc = PF_EXIT_TRACE;
        goto done;
    }
    pf_timings_lap(tm, "link and sort", 1); /* --graph-capture's grafting, when asked */
    if (analyse(cli, r.t, &r.an, &err) || (cli->summary && write_summary(cli, r.t, &r.summary, &err))) {
        rc = pf_cli_error(err.msg);
        goto done;
    }
    if (cli->summary && strcmp(cli->summary, "-") == 0) { /* the summary is the output */
        rc = pf_cli_stdout_status();
        goto done;
    }
    warn_before_tables(cli, r.t, r.an);
    /* --plot / --report files written first: a bad output path stops the run before any table
     * is printed; they are put in place only once standard output went out whole. */
    if (pf_plots_write(&v, r.an, &r.files, &err)) {
        rc = pf_cli_error(err.msg);
        goto done;
    }
    if (cli->an.group == PF_GROUP_CRITICAL_PATH) {
        pf_cp_view *cv = NULL;
        if (pf_cp_view_build(r.an, cli->top > 0 ? (size_t)cli->top : PF_CP_ITEMS, &cv, &err)) {
            rc = pf_cli_error(err.msg);
            goto done;
        }
        r.view_rc = pf_view_critical_path(stdout, &v, r.an, cv);
        pf_cp_view_free(cv);
    } else if (cli->an.group == PF_GROUP_SEQUENCE) {
        pf_seq_view *sv = NULL;
        if (pf_seq_view_build(r.an, cli->top > 0 ? (size_t)cli->top : PF_SEQ_ROWS, &sv, &err)) {
            rc = pf_cli_error(err.msg);
            goto done;
        }
        r.view_rc = pf_view_sequences(stdout, &v, r.an, sv);
        pf_seq_view_free(sv);
    } else if (pf_group_is_tree(cli->an.group)) {
        pf_module_view *mv = NULL;
        if (pf_module_view_build(r.an, cli->an.group == PF_GROUP_ANNOTATION, &mv, &err)) {
            rc = pf_cli_error(err.msg);
            goto done;
        }
        r.view_rc = pf_view_modules(stdout, &v, r.an, mv, cli->depth);
        pf_module_view_free(mv);
    } else {
        r.view_rc = pf_view_analysis(stdout, &v, r.an);
    }
    r.printed = 1;
    pf_timings_lap(tm, "render", 1);
done:
    return run_end(&r, rc, tm);
}

/* --analysis's rows table or --steps (pf_cli_run dispatches --explain to cmd_explain).
 * --timings (or PROFANA_TIMINGS=1): the run's phases, one line each on stderr, after it. */
int cmd_analysis(const pf_cli *cli)
{
    pf_cli timed = *cli; /* with the threads the analysis may use, and the timings */
    timed.an.jobs = (int)pf_parallel_workers(cli->load.jobs);
    if (!cli->timings && !pf_timings_from_env())
        return run_analysis(&timed, NULL);
    pf_timings tm;
    pf_timings_init(&tm);
    timed.load.timings = &tm;
    timed.an.timings = &tm;
    int rc = run_analysis(&timed, &tm);
    pf_timings_lap(&tm, "render", 1); /* what the last lap left: committing the files */
    pf_timings_print(&tm, stderr);
    return rc;
}
