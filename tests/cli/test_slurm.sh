# test_slurm.sh - tools/slurm/ on a real single-node Slurm that the test starts as root in a temporary directory (munged, slurmctld, slurmd): a job array of 4 tasks writes the summaries of the 4 multirank traces, a dependent job merges each run with --ranks, and every merged output equals `profana --ranks` over the same traces run directly, byte for byte. Only in `make check-full` (PF_CHECK_FULL=1); where Slurm cannot start it prints SKIP with the reason, never PASS.
. tests/cli/lib.sh

[ "${PF_CHECK_FULL:-}" = 1 ] || exit 0
skip() {
    echo "SKIP slurm: $1"
    exit 0
}
[ "$(id -u)" = 0 ] || skip "not root: the test starts munged, slurmctld and slurmd itself"
for b in mungekey munged munge slurmctld slurmd sbatch sinfo squeue scancel; do
    command -v "$b" >/dev/null 2>&1 || skip "$b is not installed (apt-get install slurm-wlm munge)"
done

# Every wait below ends by this deadline: 120 s from here.
deadline=$(($(date +%s) + 120))
# until_ok SECONDS CMD...: runs CMD every half second until it succeeds (0), for at most
# SECONDS and never past the deadline (1).
until_ok() {
    end=$(($(date +%s) + $1))
    [ "$end" -gt "$deadline" ] && end=$deadline
    shift
    while ! "$@" >/dev/null 2>&1; do
        [ "$(date +%s)" -ge "$end" ] && return 1
        sleep 0.5
    done
    return 0
}

S=$TMP/slurm
mkdir -p "$S/munge" "$S/state" "$S/spool" "$S/log" && chmod 700 "$S/munge"
pids=""
jobs_started=""
# stop PID: SIGTERM, then SIGKILL after 10 s; reaped so that nothing is left behind.
stop() {
    kill "$1" 2>/dev/null || return 0
    n=0
    while kill -0 "$1" 2>/dev/null && [ $n -lt 20 ]; do
        sleep 0.5
        n=$((n + 1))
    done
    kill -9 "$1" 2>/dev/null
    wait "$1" 2>/dev/null
}
cleanup() {
    [ -n "$jobs_started" ] && scancel $jobs_started 2>/dev/null
    for p in $pids; do stop "$p"; done # slurmd, slurmctld, munged: the reverse of their start
    rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# ---- munge: its own key, socket and state ----
mungekey -c -k "$S/munge/munge.key" 2>"$S/log/mungekey" || skip "mungekey failed: $(head -c 200 "$S/log/mungekey")"
munged -F -f --key-file="$S/munge/munge.key" --socket="$S/munge/socket" --pid-file="$S/munge/pid" \
    --log-file="$S/munge/log" --seed-file="$S/munge/seed" >"$S/log/munged.out" 2>&1 &
pids="$! $pids"
until_ok 15 munge -S "$S/munge/socket" -n || skip "munged did not start: $(tail -n 2 "$S/log/munged.out" "$S/munge/log" 2>/dev/null | tr '\n' ' ' | head -c 300)"

# ---- slurm.conf: one node, this machine, every CPU; ports from the process id, so that
# two test runs on one machine do not meet ----
H=$(hostname -s)
P=$((20000 + ($$ % 10000) * 2))
cat >"$S/slurm.conf" <<CONF
ClusterName=profanatest
SlurmctldHost=$H(127.0.0.1)
SlurmctldPort=$P
SlurmdPort=$((P + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$S/munge/socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd.pid
SlurmctldLogFile=$S/log/slurmctld.log
SlurmdLogFile=$S/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$S/log/jobcomp.txt
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
MailProg=/bin/true
NodeName=$H NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Default=YES Nodes=ALL State=UP MaxTime=INFINITE
CONF
export SLURM_CONF="$S/slurm.conf"
slurmctld -D -f "$SLURM_CONF" >"$S/log/slurmctld.out" 2>&1 &
pids="$! $pids"
slurmd -D -f "$SLURM_CONF" >"$S/log/slurmd.out" 2>&1 &
pids="$! $pids"
node_idle() { [ "$(sinfo -h -n "$H" -o %t 2>/dev/null)" = idle ]; }
until_ok 40 node_idle ||
    skip "the node did not come up idle within 40 s: $(tail -n 3 "$S/log/slurmctld.log" "$S/log/slurmd.log" 2>/dev/null | tr '\n' ' ' | head -c 400)"
pass "slurm: munged, slurmctld and slurmd up; node $H idle with $(nproc) CPUs"

# ---- two runs, given both ways submit.sh takes them: the FSDP2 pair as a directory, the
# tensor-parallel pair as a list file ----
MR=testdata/multirank
mkdir -p "$TMP/fsdp2"
for r in 0 1; do ln -s "$PWD/$MR/fsdp2_bf16_rank$r.json.gz" "$TMP/fsdp2/"; done
printf '%s\n' "$MR/tp_collectives_bf16_rank0.json.gz" "$MR/tp_collectives_bf16_rank1.json.gz" >"$TMP/tp"
OUT=$TMP/res
check_run "submit.sh: 4 traces of 2 runs" 0 sh tools/slurm/submit.sh -f text,csv,json,md -p "$PROFANA" bf16 "$OUT" "$TMP/fsdp2" "$TMP/tp"
cat "$TMP/out"
summ=$(sed -n 's/^summaries: job \([0-9]*\) .*/\1/p' "$TMP/out")
merge=$(sed -n 's/.*; merge: job \([0-9]*\)$/\1/p' "$TMP/out")
jobs_started="$summ $merge"
[ -n "$summ" ] && [ -n "$merge" ] || exit 0 # the failure is reported above; nothing ran
check_grep "submit.sh: 4 array tasks" "(4 traces, 2 runs, 4 array tasks)" "$TMP/out"
echo "squeue right after the submission:"
squeue -h -o '%i %j %T %r'

# Both jobs leave the queue: done, or cancelled by a failed dependency.
queue_empty() { [ -z "$(squeue -h -j "$summ,$merge" -o %i 2>/dev/null)" ]; }
if until_ok 100 queue_empty; then pass "slurm: both jobs finished within the deadline"; else
    fail "slurm: both jobs finished within the deadline" "$(squeue -h -o '%i %j %T %r' | tr '\n' ';')"; fi
jobs_started=""

# Slurm's own record (jobcomp/filetxt, one line per job or array task): every summary task and
# both merge tasks completed, and the merge began after the last summary ended.
jobcomp() { # ARRAYJOB TASK: that task's record, one KEY=VALUE a line (ARRAYJOB -: job TASK)
    awk -v j="ArrayJobId=$1" -v t="ArrayTaskId=$2" -v id="JobId=$2" '{
        a = 0; b = 0
        for (i = 1; i <= NF; i++) { a += ($i == j); b += ($i == t) }
        if ((j == "ArrayJobId=-" && $1 == id) || (a && b)) for (i = 1; i <= NF; i++) print $i
    }' "$S/log/jobcomp.txt"
}
echo "jobcomp records:"
awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^(JobId|Name|JobState|StartTime|EndTime|ArrayJobId|ArrayTaskId)=/) printf "%s ", $i; print "" }' "$S/log/jobcomp.txt"
for t in 0 1 2 3; do
    check_eq "jobcomp: summary task $t completed" "$(jobcomp "$summ" $t | sed -n 's/^JobState=//p')" COMPLETED
    check_grep "summary task $t's output names its task" "array job $summ task $t " "$OUT/logs/summarise_${summ}_$t.out"
done
echo "the jobs' output files:"
for f in "$OUT"/logs/*.out; do echo "== $(basename "$f")"; cat "$f"; done
for t in 0 1; do
    check_eq "jobcomp: merge task $t completed" "$(jobcomp "$merge" $t | sed -n 's/^JobState=//p')" COMPLETED
done
last_end=$(for t in 0 1 2 3; do jobcomp "$summ" $t | sed -n 's/^EndTime=//p'; done | sort | tail -n 1)
first_start=$(for t in 0 1; do jobcomp "$merge" $t | sed -n 's/^StartTime=//p'; done | sort | head -n 1)
if [ -n "$last_end" ] && [ -n "$first_start" ] && ! expr "$first_start" \< "$last_end" >/dev/null; then
    pass "slurm: the merge started ($first_start) after the last summary ended ($last_end)"
else
    fail "slurm: the merge started after the last summary ended" "merge start '$first_start', summaries' end '$last_end'"
fi
check_eq "4 summaries written" "$(ls "$OUT"/fsdp2/summaries/rank_00000[01].summary.json "$OUT"/tp/summaries/rank_00000[01].summary.json 2>/dev/null | wc -l)" 4

# The merged outputs against --ranks over the traces, byte for byte.
for f in text csv json md; do
    case $f in text) ext=txt ;; *) ext=$f ;; esac
    "$PROFANA" --ranks "$TMP/fsdp2" bf16 --format $f >"$TMP/want.fsdp2.$ext"
    "$PROFANA" --ranks "$MR/tp_collectives_bf16_rank0.json.gz" "$MR/tp_collectives_bf16_rank1.json.gz" bf16 --format $f >"$TMP/want.tp.$ext"
    for run in fsdp2 tp; do
        if cmp -s "$OUT/$run/ranks.$ext" "$TMP/want.$run.$ext"; then
            pass "slurm $run ranks.$ext equals --ranks over the traces"
        else
            fail "slurm $run ranks.$ext equals --ranks over the traces" \
                "$(diff "$OUT/$run/ranks.$ext" "$TMP/want.$run.$ext" 2>&1 | head -n 6 | tr '\n' ' ')"
        fi
    done
done
# (--ranks names each trace relative to the traces' common directory, which the Ranks line names)
check_grep "the merged FSDP2 text has both ranks" "^   1 | fsdp2_bf16_rank1.json.gz" "$OUT/fsdp2/ranks.txt"
check_eq "the merged FSDP2 text names the traces' directory" \
    "$(tr '\n' ' ' <"$OUT/fsdp2/ranks.txt" | tr -s ' ' | grep -c "; traces in $TMP/fsdp2/ Collectives:")" 1

# A rank whose trace is broken, with 2 traces per task (-k 2) and one task at a time (-m 1): the
# task that holds it fails (the good trace beside it is still summarised), the other task
# completes, and afterok cancels the merge instead of leaving it pending; no merged output.
mkdir -p "$TMP/broken"
cp "$MR/fsdp2_bf16_rank0.json.gz" "$TMP/broken/a.json.gz"
printf 'not a trace' >"$TMP/broken/b.json"
cp "$MR/fsdp2_bf16_rank1.json.gz" "$TMP/broken/c.json.gz"
check_run "submit.sh -k 2 -m 1: a run with a broken trace" 0 sh tools/slurm/submit.sh -k 2 -m 1 -p "$PROFANA" bf16 "$TMP/bad" "$TMP/broken"
check_grep "submit.sh -k 2: 3 traces in 2 array tasks" "(3 traces, 1 runs, 2 array tasks)" "$TMP/out"
summ=$(sed -n 's/^summaries: job \([0-9]*\) .*/\1/p' "$TMP/out")
merge=$(sed -n 's/.*; merge: job \([0-9]*\)$/\1/p' "$TMP/out")
jobs_started="$summ $merge"
[ -n "$summ" ] && [ -n "$merge" ] || exit 0
if until_ok 60 queue_empty; then pass "slurm: the broken run's jobs left the queue"; else
    fail "slurm: the broken run's jobs left the queue" "$(squeue -h -o '%i %j %T %r' | tr '\n' ';')"; fi
jobs_started=""
check_eq "jobcomp: the task with the broken trace failed" "$(jobcomp "$summ" 0 | sed -n 's/^JobState=//p')" FAILED
check_eq "jobcomp: the other task completed" "$(jobcomp "$summ" 1 | sed -n 's/^JobState=//p')" COMPLETED
check_grep "the failed task's output has profana's error" "profana: error: $TMP/broken/b.json: byte 0:" "$TMP/bad/logs/summarise_${summ}_0.out"
check_eq "the good traces' summaries are written, the broken one's not" "$(ls "$TMP/bad/broken/summaries" | tr '\n' ' ')" \
    "rank_000000.summary.json rank_000002.summary.json "
check_eq "jobcomp: the merge was cancelled" "$(jobcomp - "$merge" | sed -n 's/^JobState=//p')" CANCELLED
check_eq "no merged output for the broken run" "$(ls "$TMP/bad/broken")" summaries
