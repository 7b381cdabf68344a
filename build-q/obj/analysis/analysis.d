build-q/obj/analysis/analysis.o: src/analysis/analysis.c \
 include/profana/analysis.h include/profana/categories.h \
 include/profana/trace.h include/profana/error.h \
 include/profana/op_call.h include/profana/strtab.h \
 include/profana/devices.h include/profana/dtype.h \
 include/profana/devset.h include/profana/formulas.h \
 include/profana/rates.h include/profana/collectives.h \
 include/profana/ranks.h include/profana/ptrmap.h \
 include/profana/satmath.h include/profana/timings.h \
 include/profana/waits.h
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
include/profana/collectives.h:
include/profana/ranks.h:
include/profana/ptrmap.h:
include/profana/satmath.h:
include/profana/timings.h:
include/profana/waits.h:
