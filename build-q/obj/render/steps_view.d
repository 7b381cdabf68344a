build-q/obj/render/steps_view.o: src/render/steps_view.c \
 include/profana/view.h include/profana/analysis.h \
 include/profana/categories.h include/profana/trace.h \
 include/profana/error.h include/profana/op_call.h \
 include/profana/strtab.h include/profana/devices.h \
 include/profana/dtype.h include/profana/devset.h \
 include/profana/formulas.h include/profana/rates.h \
 include/profana/diff.h include/profana/ranks.h include/profana/runs.h \
 include/profana/tabulate.h include/profana/jsonw.h
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
