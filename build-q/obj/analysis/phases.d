build-q/obj/analysis/phases.o: src/analysis/phases.c \
 include/profana/gzout.h include/profana/analysis.h \
 include/profana/categories.h include/profana/trace.h \
 include/profana/error.h include/profana/op_call.h \
 include/profana/strtab.h include/profana/devices.h \
 include/profana/dtype.h include/profana/devset.h \
 include/profana/formulas.h include/profana/rates.h \
 include/profana/jscan.h include/profana/satmath.h
include/profana/gzout.h:
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
include/profana/jscan.h:
include/profana/satmath.h:
