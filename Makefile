# Makefile - builds ./profana, runs the demo, the tests (plain and under ASan+UBSan) and the benchmark.
CC      ?= cc
CSTD     = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
WARN     = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CFLAGS  ?= -O2 -g
ALL_CFLAGS = $(CSTD) $(WARN) -Iinclude $(CFLAGS) $(EXTRA_CFLAGS)
LDLIBS   = -lcjson -lz -lm
SAN      = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

BUILD   ?= build
LIB_SRCS = $(sort $(filter-out src/main.c,$(wildcard src/*.c src/formulas/*.c)))
OBJS     = $(patsubst src/%.c,$(BUILD)/obj/%.o,$(LIB_SRCS))
UNITS    = $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(sort $(wildcard tests/unit/test_*.c)))
HEADERS  = $(wildcard include/profana/*.h src/*.h src/formulas/*.h)

DEMO_TRACE = testdata/traces/eager_bf16.json

.PHONY: all demo check test units clean deps bench FORCE

all: deps profana

profana: $(BUILD)/profana
	cp $< $@

$(BUILD)/profana: $(BUILD)/obj/main.o $(BUILD)/libprofana.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/libprofana.a: $(OBJS)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/obj/%.o: src/%.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(BUILD)/libprofana.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests/unit -o $@ $< $(BUILD)/libprofana.a $(LDLIBS)

units: $(UNITS)

# Installs what the build needs on a Debian machine when it is missing (README: quick start).
deps:
	@./tests/deps.sh

demo: all
	./profana --analysis $(DEMO_TRACE) bf16

# The suite runs twice: once on the optimised build, once under AddressSanitizer and
# UndefinedBehaviorSanitizer; tests/run.sh prints the combined "N passed, N failed".
check:
	@./tests/deps.sh test
	$(MAKE) --no-print-directory profana units
	$(MAKE) --no-print-directory BUILD=build-asan CFLAGS="-O1 -g $(SAN)" build-asan/profana units
	./tests/run.sh build build-asan

test: check

clean:
	rm -rf build build-asan profana
