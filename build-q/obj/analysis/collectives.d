build-q/obj/analysis/collectives.o: src/analysis/collectives.c \
 include/profana/collectives.h include/profana/ranks.h \
 include/profana/devices.h include/profana/dtype.h \
 include/profana/error.h include/profana/trace.h \
 include/profana/op_call.h include/profana/strtab.h \
 include/profana/analysis.h include/profana/categories.h \
 include/profana/devset.h include/profana/formulas.h \
 include/profana/rates.h include/profana/satmath.h
include/profana/collectives.h:
include/profana/ranks.h:
include/profana/devices.h:
include/profana/dtype.h:
include/profana/error.h:
include/profana/trace.h:
include/profana/op_call.h:
include/profana/strtab.h:
include/profana/analysis.h:
include/profana/categories.h:
include/profana/devset.h:
include/profana/formulas.h:
include/profana/rates.h:
include/profana/satmath.h:
