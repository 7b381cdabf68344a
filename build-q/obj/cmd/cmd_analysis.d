build-q/obj/cmd/cmd_analysis.o: src/cmd/cmd_analysis.c \
 include/profana/cli.h include/profana/analysis.h \
 include/profana/categories.h include/profana/trace.h \
 include/profana/error.h include/profana/op_call.h \
 include/profana/strtab.h include/profana/devices.h \
 include/profana/dtype.h include/profana/devset.h \
 include/profana/formulas.h include/profana/rates.h \
 include/profana/tabulate.h include/profana/jsonw.h \
 include/profana/view.h include/profana/diff.h include/profana/ranks.h \
 include/profana/runs.h include/profana/outfile.h \
 include/profana/parallel.h include/profana/report.h \
 include/profana/timings.h
include/profana/cli.h:
include/profana/analysis.h:
include/profana/categories.h:
include/profana/trace.h:
include/profana/error.h:
include/profana/op_call.h:
include/profana/strtab.h:
include/profana/devices.h:
include/profana/dtype.h:
include/profana/devset.h:
include/profana/formulas.h:
include/profana/rates.h:
include/profana/tabulate.h:
include/profana/jsonw.h:
include/profana/view.h:
include/profana/diff.h:
include/profana/ranks.h:
include/profana/runs.h:
include/profana/outfile.h:
include/profana/parallel.h:
include/profana/report.h:
include/profana/timings.h:
