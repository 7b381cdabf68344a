#!/bin/sh
# valgrind.sh - runs $PF_VALGRIND_BIN with these arguments under valgrind memcheck: what PROFANA points to in tests/run.sh --valgrind.
# Errors and definite/indirect leaks exit 99 and go to $PF_VALGRIND_LOG/PID.log (not stderr,
# which the tests compare line by line); run.sh fails the test file for any non-empty log.
exec valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
    --show-leak-kinds=definite,indirect -q --log-file="${PF_VALGRIND_LOG:-.}/%p.log" \
    "${PF_VALGRIND_BIN:?PF_VALGRIND_BIN names the program to run}" "$@"
