#!/bin/sh
# deps.sh - installs the compiler, make and libraries profana needs, with apt-get, when missing.
# "deps.sh test" also installs what the tests need: python3, whose json module reads the
# traces independently of profana to derive the expected figures.
need=""
command -v cc >/dev/null 2>&1 || need="$need gcc libc6-dev"
command -v make >/dev/null 2>&1 || need="$need make"
[ -f /usr/include/cjson/cJSON.h ] || need="$need libcjson-dev"
[ -f /usr/include/zlib.h ] || need="$need zlib1g-dev"
if [ "${1:-}" = test ]; then
    command -v python3 >/dev/null 2>&1 || need="$need python3"
fi
[ -z "$need" ] && exit 0
echo "profana: installing:$need" >&2
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
$sudo apt-get update -qq && $sudo apt-get install -y -qq $need >/dev/null || {
    echo "profana: could not install:$need (run: apt-get install$need)" >&2
    exit 1
}
