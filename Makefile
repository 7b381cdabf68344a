# Makefile - builds ./profana, runs the demo, the tests (plain and under ASan+UBSan) and the benchmark.
CC      ?= cc
CSTD     = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
WARN     = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CFLAGS  ?= -O3 -g
# -MMD -MP: each object's header dependencies are written beside it (build/obj/*.d) and read
# back below, so a changed header rebuilds exactly what includes it.
ALL_CFLAGS = $(CSTD) $(WARN) -Iinclude -MMD -MP $(CFLAGS) $(EXTRA_CFLAGS)
LDLIBS   = -lcjson -lz -lm
SAN      = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

BUILD   ?= build
# Layers, lowest first (docs/HACKING.md, "Where things are"); a file includes only its own layer's or
# lower layers' headers (tests/cli/test_layers.sh).
LAYERS   = util json catalog trace formulas analysis render rewrite cmd
LIB_SRCS = $(sort $(foreach l,$(LAYERS),$(wildcard src/$(l)/*.c)))
OBJS     = $(patsubst src/%.c,$(BUILD)/obj/%.o,$(LIB_SRCS))
UNITS    = $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(sort $(wildcard tests/unit/test_*.c)))

DEMO_TRACE = testdata/traces/eager_bf16.json

.PHONY: all wheel install install-paths uninstall demo check check-full check-fast test units clean deps bench bench-scaling fuzz fuzz-build fuzz-syntax cppcheck FORCE

# Plain `make` only builds (it installs nothing); `make demo` and `make check` install what a
# fresh Debian machine lacks first (tests/deps.sh).
all: profana

profana: $(BUILD)/profana
	cp $< $@

$(BUILD)/profana: $(BUILD)/obj/main.o $(BUILD)/libprofana.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

# The man page is the binary's own --man: written from the same command and option tables as
# --help, so the two cannot disagree.
$(BUILD)/profana.1: $(BUILD)/profana
	$< --man >$@.tmp && mv $@.tmp $@

# make install [PREFIX=/usr/local] [DESTDIR=staging dir]: the binary and its man page.
PREFIX  ?= /usr/local
BINDIR   = $(DESTDIR)$(PREFIX)/bin
MANDIR   = $(DESTDIR)$(PREFIX)/share/man/man1

# The two folders reach the shell through the environment, never through the command text, so
# a DESTDIR or PREFIX with spaces, quotes or other shell characters is one path, as given
# ("D/victim stage" once removed D/victim). make itself expands `$` and cannot hold a newline
# in a folder name: such names are refused before anything is installed or removed.
install uninstall: export PF_BINDIR = $(BINDIR)
install uninstall: export PF_MANDIR = $(MANDIR)
PF_NOT_CARRIED = $(findstring $$,$(value DESTDIR)$(value PREFIX))
install-paths:
	@if [ -n '$(if $(PF_NOT_CARRIED),x)' ] || [ "$$(printf '%s' "$$PF_BINDIR$$PF_MANDIR" | wc -l)" -ne 0 ]; then \
		echo "make: DESTDIR and PREFIX may not hold '\$$' or a newline (make cannot pass them on as given)" >&2; \
		exit 2; fi

install: install-paths $(BUILD)/profana $(BUILD)/profana.1
	install -d -- "$$PF_BINDIR" "$$PF_MANDIR"
	install -m 755 -- $(BUILD)/profana "$$PF_BINDIR/profana"
	install -m 644 -- $(BUILD)/profana.1 "$$PF_MANDIR/profana.1"

uninstall: install-paths
	rm -f -- "$$PF_BINDIR/profana" "$$PF_MANDIR/profana.1"

# make wheel: dist/profana-VERSION-py3-none-PLATFORM.whl (tools/make_wheel.py, Python's standard
# library alone), for `pip install` (README.md, "From Python"). Its binary links zlib statically
# and carries the cJSON it was linked against beside itself (found through rpath $ORIGIN: Debian
# ships no static cJSON), so it runs where libcjson is not installed; stripped.
# WHEEL_DIR and WHEEL_BIN place the wheel and its binary elsewhere (tests/cli/test_wheel.sh).
WHEEL_LIBS = $(shell $(CC) -print-file-name=libcjson.so.1)
WHEEL_DIR ?= dist
WHEEL_BIN ?= $(BUILD)/wheel/profana
$(WHEEL_BIN): $(BUILD)/obj/main.o $(BUILD)/libprofana.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -s -o $@ $^ -Wl,-rpath,'$$ORIGIN' -Wl,-Bstatic -lz -Wl,-Bdynamic -lcjson -lm

wheel: $(WHEEL_BIN)
	python3 tools/make_wheel.py $(WHEEL_BIN) $(WHEEL_LIBS) $(WHEEL_DIR)

$(BUILD)/libprofana.a: $(OBJS)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/obj/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libprofana.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests/unit -o $@ $< $(BUILD)/libprofana.a $(LDLIBS)

units: $(UNITS)

# make bench: traces of 100 MB and 1 GB generated from testdata/ into $$TMPDIR (removed
# afterwards), profana timed on them against python3's json.load (docs/performance.md, "`make bench`").
$(BUILD)/bench/%: tests/bench/%.c $(BUILD)/libprofana.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(BUILD)/libprofana.a $(LDLIBS)

bench: all $(BUILD)/bench/gen_trace $(BUILD)/bench/bench_run
	./tests/bench/run.sh $(BUILD)

# make bench-scaling [BENCH_SCALING_MB="300 1000"]: only the scaling table (tests/bench/scaling.sh):
# one generated trace at -j 1, 2, 4, 8, 16 (those the host has cores for). tools/bench_scaling.sh
# is the same in one command that also builds.
BENCH_SCALING_MB ?= 300
bench-scaling: all $(BUILD)/bench/gen_trace $(BUILD)/bench/bench_run
	./tests/bench/scaling.sh $(BUILD) $(BENCH_SCALING_MB)

# libFuzzer targets (tests/fuzz/fuzz_*.c), built with clang into build-fuzz/ (docs/reliability.md, "How it is checked").
# pf_source_read (what --augment_trace and --combine read the text with) is wrapped so that
# the text sits in an exact-size heap block; the loader itself reads into poisoned buffers.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS = $(patsubst tests/fuzz/%.c,build-fuzz/fuzz/%,$(sort $(wildcard tests/fuzz/fuzz_*.c)))

$(BUILD)/fuzz/%: tests/fuzz/%.c tests/fuzz/common.c tests/fuzz/common.h $(BUILD)/libprofana.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests/fuzz -fsanitize=fuzzer -Wl,--wrap=pf_source_read -o $@ $< \
		tests/fuzz/common.c $(BUILD)/libprofana.a $(LDLIBS)

# The fuzz targets compiled (not linked) by the build's compiler, so that `make check` catches a
# target that no longer compiles without needing clang's libFuzzer (CI builds them with it).
fuzz-syntax:
	$(CC) $(filter-out -MMD -MP,$(ALL_CFLAGS)) -Itests/fuzz -fsyntax-only tests/fuzz/common.c $(sort $(wildcard tests/fuzz/fuzz_*.c))

fuzz-build:
	@./tests/deps.sh fuzz
	$(MAKE) --no-print-directory BUILD=build-fuzz CC=clang CFLAGS="-O1 -g -fsanitize=fuzzer-no-link $(SAN)" $(FUZZ_TARGETS)

# Runs each target for FUZZ_SECONDS from the seeds (tests/fuzz/seeds.py); fails on any finding.
fuzz: fuzz-build
	./tests/fuzz/run.sh build-fuzz $(FUZZ_SECONDS)

# Static analysis with the build's defines; cJSON's header is read for its iteration macro.
# (--library=posix is left out: its mmap rule rejects fd -1 with MAP_ANONYMOUS.)
CPPCHECK = cppcheck -q --error-exitcode=1 --inline-suppr --std=c11 \
	--enable=warning,style,performance,portability -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
	-Iinclude --include=/usr/include/cjson/cJSON.h

cppcheck:
	$(CPPCHECK) src include tests/fuzz

# Installs what the build needs on a Debian machine when it is missing (README.md, "Quick start").
deps:
	@./tests/deps.sh

demo: deps
	$(MAKE) --no-print-directory profana
	./profana --analysis $(DEMO_TRACE) bf16

# `make check`: the unit tests on the optimised build and under AddressSanitizer and
# UndefinedBehaviorSanitizer, and every CLI test file once, under the sanitizers (they check
# memory as well as figures; run.sh --once; LeakSanitizer's exit scan, 40 ms a run of the
# binary, is left to check-full); test files run in parallel and tests/run.sh prints
# the combined "N passed, N failed" (minutes on two cores; docs/reliability.md, "How it is
# checked"). `make check-full`, which CI (.ci/run) runs, runs every CLI test file on both
# builds (the limits of time and memory on the full-size inputs of the optimised build), adds
# cppcheck, a pass under valgrind memcheck (every unit test program and every run of the
# binary, about 1,400 runs), ThreadSanitizer on the tests that race threads (run.sh --tsan:
# the -j test and the threaded unit tests) and, on the optimised build, the tests kept for it (run.sh --full:
# tests/cli/test_slurm.sh starts a one-node Slurm as root, or prints SKIP with the reason).
JOBS ?= $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
# The unit tests that run threads against each other, for ThreadSanitizer (tests/run.sh --tsan)
TSAN_UNITS = test_parallel test_trace_vec test_trace_links test_work test_scan_window
CHECK_BUILDS = $(MAKE) --no-print-directory -j$(JOBS) profana units $(BUILD)/bench/gen_trace $(BUILD)/bench/bench_run && \
	$(MAKE) --no-print-directory -j$(JOBS) BUILD=build-asan CFLAGS="-O1 -g $(SAN)" build-asan/profana units \
		build-asan/bench/gen_trace build-asan/bench/bench_run
check:
	@./tests/deps.sh test
	$(CHECK_BUILDS)
	$(MAKE) --no-print-directory fuzz-syntax
	ASAN_OPTIONS=$${ASAN_OPTIONS:+$$ASAN_OPTIONS:}detect_leaks=0 ./tests/run.sh --once build-asan --fast-on build build build-asan

check-full:
	@./tests/deps.sh test
	$(CHECK_BUILDS)
	$(MAKE) --no-print-directory -j$(JOBS) BUILD=build-tsan CFLAGS="-O1 -g -fsanitize=thread" build-tsan/profana \
		build-tsan/bench/gen_trace $(TSAN_UNITS:%=build-tsan/tests/%)
	$(MAKE) --no-print-directory fuzz-syntax
	PF_SWEEP_ALL=1 ./tests/run.sh --once build-asan --full build build-asan --valgrind build --tsan build-tsan --cppcheck

test: check

# `make check-fast`: the quick tier, under a minute on two cores (docs/reliability.md, "How it
# is checked"): the unit programs and the usage, structure and broken-input tests
# (tests/cli/test_usage.sh, test_structure.sh, test_broken.sh) on the optimised build.
# `make check` still runs everything.
CHECK_FAST_CLI = usage structure broken
check-fast:
	@./tests/deps.sh test
	$(MAKE) --no-print-directory -j$(JOBS) profana units
	./tests/run.sh --units $(BUILD) $(CHECK_FAST_CLI)

clean:
	rm -rf build build-asan build-tsan build-fuzz profana dist

# Header dependencies written by -MMD -MP (absent before the first build).
-include $(wildcard $(BUILD)/obj/*.d $(BUILD)/obj/*/*.d $(BUILD)/tests/*.d $(BUILD)/bench/*.d $(BUILD)/fuzz/*.d)
