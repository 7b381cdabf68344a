build-q/obj/render/analysis_notes.o: src/render/analysis_notes.c \
 src/render/view_parts.h include/profana/view.h \
 include/profana/analysis.h include/profana/categories.h \
 include/profana/trace.h include/profana/error.h \
 include/profana/op_call.h include/profana/strtab.h \
 include/profana/devices.h include/profana/dtype.h \
 include/profana/devset.h include/profana/formulas.h \
 include/profana/rates.h include/profana/diff.h include/profana/ranks.h \
 include/profana/runs.h include/profana/tabulate.h \
 include/profana/jsonw.h include/profana/waits.h
src/render/view_parts.h:
include/profana/view.h:
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
include/profana/diff.h:
include/profana/ranks.h:
include/profana/runs.h:
include/profana/tabulate.h:
include/profana/jsonw.h:
include/profana/waits.h:
