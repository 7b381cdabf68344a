"""The ``profana`` command a wheel's install puts on PATH: the binary the package carries, run in this process's place."""
import os
import sys


def main():
    # the carried binary only: "profana" on PATH is this script, which must not run itself
    exe = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "profana")
    if not os.path.isfile(exe):
        sys.exit("profana: this install carries no binary (%s)" % exe)
    os.execv(exe, [exe] + sys.argv[1:])
