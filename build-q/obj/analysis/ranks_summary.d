build-q/obj/analysis/ranks_summary.o: src/analysis/ranks_summary.c \
 include/profana/jscan.h include/profana/ranks.h \
 include/profana/devices.h include/profana/dtype.h \
 include/profana/error.h include/profana/trace.h \
 include/profana/op_call.h include/profana/strtab.h
include/profana/jscan.h:
include/profana/ranks.h:
include/profana/devices.h:
include/profana/dtype.h:
include/profana/error.h:
include/profana/trace.h:
include/profana/op_call.h:
include/profana/strtab.h:
