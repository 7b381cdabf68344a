#!/bin/sh
# submit.sh - submits profana's many-rank recipe to Slurm: a job array whose tasks write one summary per rank's trace (summarise.sbatch), and a job that depends on it and runs `profana --ranks` over each run's summaries (merge.sbatch).
# Usage: tools/slurm/submit.sh [-k N] [-c N] [-m N] [-f FORMATS] [-p PROFANA] DTYPE OUTDIR RUN...
#   RUN      one run's per-rank traces: a directory (its .json and .json.gz files, by name, as
#            `profana --ranks DIR` reads it) or a file that lists one trace per line, in rank order
#   OUTDIR   OUTDIR/NAME/summaries/rank_NNNNNN.summary.json (NNNNNN: the trace's position in its
#            run) and OUTDIR/NAME/ranks.{txt,csv,json,md}, NAME being the RUN's base name;
#            OUTDIR/logs/ holds the jobs' output
#   -k N     traces per array task (default 1): keeps thousands of ranks under Slurm's
#            MaxArraySize (1001 unless the cluster raised it)
#   -c N     CPUs per array task, also profana's -j (default 1)
#   -m N     at most N array tasks running at once (sbatch --array=...%N; default: no limit)
#   -f LIST  the merged outputs' formats, comma-separated among text,csv,json,md (default text,json)
#   -p PATH  the profana binary (default: `profana` on PATH)
# Prints the two job ids. Every path must be on storage that the compute nodes share, at the
# same path; relative paths are taken from the current directory, where the jobs run too.
# sbatch's own input variables apply to both jobs (SBATCH_PARTITION, SBATCH_ACCOUNT,
# SBATCH_TIMELIMIT, SBATCH_MEM_PER_CPU, ...).
set -u
here=$(cd "$(dirname "$0")" && pwd)
usage() {
    awk 'NR > 2 && !/^#/ { exit } NR > 2 { sub(/^# ?/, ""); print }' "$0" >&2
    exit 2
}
writing=0
die() {
    echo "submit.sh: $*" >&2
    [ "$writing" = 1 ] && rm -f "$manifest.tmp" "$runs.tmp" # no half-written list left behind
    exit 1
}
per_task=1 cpus=1 max_running="" formats=text,json profana=""
while getopts k:c:m:f:p:h opt; do
    case $opt in
    k) per_task=$OPTARG ;;
    c) cpus=$OPTARG ;;
    m) max_running=$OPTARG ;;
    f) formats=$OPTARG ;;
    p) profana=$OPTARG ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 3 ] || usage
dtype=$1 outdir=$2
shift 2
for n in "$per_task" "$cpus" ${max_running:+"$max_running"}; do
    case $n in '' | *[!0-9]* | 0*) die "-k, -c and -m take a positive whole number, not '$n'" ;; esac
done
for f in $(echo "$formats" | tr , ' '); do
    case $f in text | csv | json | md) ;; *) die "-f: '$f' is not one of text, csv, json, md" ;; esac
done
# The binary by absolute path: the jobs may start with another PATH.
if [ -z "$profana" ]; then
    profana=$(command -v profana) || die "profana is not on PATH (name it with -p)"
fi
case $profana in /*) ;; */*) profana=$PWD/$profana ;; *) profana=$(command -v "$profana") || die "-p: no such program" ;; esac
[ -x "$profana" ] || die "$profana: not an executable"
command -v sbatch >/dev/null 2>&1 || die "sbatch is not on PATH (run this on a Slurm login node)"

mkdir -p "$outdir/logs" || die "$outdir: cannot create the directory"
manifest=$outdir/traces.tsv runs=$outdir/runs.txt
writing=1
: >"$manifest.tmp" && : >"$runs.tmp" || die "$outdir: cannot write"
tab=$(printf '\t')
# One line per trace: NAME <tab> position in its run <tab> the trace's path as given.
for run in "$@"; do
    name=$(basename "$run")
    grep -qxF -- "$name" "$runs.tmp" && die "two runs are named '$name' (give them different base names)"
    case $name in *"$tab"*) die "$run: a tab in the name" ;; esac
    echo "$name" >>"$runs.tmp"
    [ -d "$run" ] || [ -f "$run" ] || die "$run: neither a directory nor a list of traces"
    if [ -d "$run" ]; then
        # profana's rule for a directory: names not starting with '.', ending .json or .json.gz,
        # in byte order, joined as DIR/NAME.
        (cd "$run" && LC_ALL=C ls -1A) | LC_ALL=C grep -E '^[^.].*\.json(\.gz)?$' | R=$run awk '{ print ENVIRON["R"] "/" $0 }'
    else
        grep -v '^[[:space:]]*$' "$run"
    fi | N=$name awk 'BEGIN { OFS = "\t" } { print ENVIRON["N"], NR - 1, $0 } END { if (NR == 0) exit 1 }' >>"$manifest.tmp" ||
        die "$run: no traces"
done
mv "$manifest.tmp" "$manifest" && mv "$runs.tmp" "$runs" || die "$outdir: cannot write"
writing=0
while IFS= read -r name; do
    mkdir -p "$outdir/$name/summaries" || die "$outdir/$name: cannot create the directory"
done <"$runs"

n_traces=$(wc -l <"$manifest")
n_runs=$(wc -l <"$runs")
tasks=$(((n_traces + per_task - 1) / per_task))
array=0-$((tasks - 1))${max_running:+%$max_running}
summ=$(sbatch --parsable --chdir="$PWD" --array="$array" --cpus-per-task="$cpus" \
    --output="$outdir/logs/summarise_%A_%a.out" \
    "$here/summarise.sbatch" "$profana" "$dtype" "$outdir" "$per_task" "$cpus") || die "sbatch of the summaries failed"
summ=${summ%%;*}
# afterok: the merge starts only when every summary task succeeded; a failed task cancels it
# instead of leaving it pending for ever.
merge=$(sbatch --parsable --chdir="$PWD" --array=0-$((n_runs - 1)) --dependency=afterok:"$summ" \
    --kill-on-invalid-dep=yes --output="$outdir/logs/merge_%A_%a.out" \
    "$here/merge.sbatch" "$profana" "$dtype" "$outdir" "$formats") || die "sbatch of the merge failed (the summaries are job $summ)"
merge=${merge%%;*}
echo "summaries: job $summ ($n_traces traces, $n_runs runs, $tasks array tasks); merge: job $merge"
