#!/bin/sh
# deps.sh - installs the compiler, make and libraries profana needs, with apt-get, when missing.
# "deps.sh test" also installs what the tests need: python3, whose json module reads the
# traces independently of profana to derive the expected figures, and rsvg-convert
# (librsvg2-bin), which renders every chart to PNG; valgrind (the suite runs once under
# memcheck), cppcheck, groff (the man page is rendered) and tmux (a terminal for the width test),
# python3-jsonschema, python3-pandas, python3-venv and python3-pip (the schemas and the wheel). "deps.sh fuzz" installs clang and its libFuzzer runtime.
# Debian's python3, the one apt-get's python3-* packages install for (tests/run.sh says why)
[ -x /usr/bin/python3 ] && PATH=/usr/bin:$PATH && export PATH
need=""
command -v cc >/dev/null 2>&1 || need="$need gcc libc6-dev"
command -v make >/dev/null 2>&1 || need="$need make"
[ -f /usr/include/cjson/cJSON.h ] || need="$need libcjson-dev"
[ -f /usr/include/zlib.h ] || need="$need zlib1g-dev"
if [ "${1:-}" = test ]; then
    command -v python3 >/dev/null 2>&1 || need="$need python3"
    command -v rsvg-convert >/dev/null 2>&1 || need="$need librsvg2-bin"
    command -v valgrind >/dev/null 2>&1 || need="$need valgrind"
    command -v cppcheck >/dev/null 2>&1 || need="$need cppcheck"
    command -v groff >/dev/null 2>&1 || need="$need groff-base" # renders the man page (make install)
    command -v tmux >/dev/null 2>&1 || need="$need tmux" # a real terminal for tests/cli/test_width.sh
    # the JSON schemas (test_schema.sh), the wheel's venv, pip and DataFrames (test_wheel.sh)
    python3 -c 'import jsonschema' 2>/dev/null || need="$need python3-jsonschema"
    python3 -c 'import pandas' 2>/dev/null || need="$need python3-pandas"
    python3 -c 'import ensurepip' 2>/dev/null || need="$need python3-venv"
    python3 -m pip --version >/dev/null 2>&1 || need="$need python3-pip"
fi
if [ "${1:-}" = fuzz ]; then
    command -v python3 >/dev/null 2>&1 || need="$need python3"
    command -v clang >/dev/null 2>&1 || need="$need clang"
    # the runtime is a package of its own; clang prints a bare name when it has no such file
    case $(clang -print-file-name="libclang_rt.fuzzer-$(uname -m).a" 2>/dev/null) in
    /*) ;;
    *) need="$need libclang-rt-dev" ;;
    esac
fi
[ -z "$need" ] && exit 0
echo "profana: installing:$need" >&2
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
$sudo apt-get update -qq && $sudo apt-get install -y -qq $need >/dev/null || {
    echo "profana: could not install:$need (run: apt-get install$need)" >&2
    exit 1
}
