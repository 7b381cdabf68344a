build-q/obj/analysis/ranks_match.o: src/analysis/ranks_match.c \
 include/profana/ranks.h include/profana/devices.h \
 include/profana/dtype.h include/profana/error.h include/profana/trace.h \
 include/profana/op_call.h include/profana/strtab.h \
 include/profana/satmath.h
include/profana/ranks.h:
include/profana/devices.h:
include/profana/dtype.h:
include/profana/error.h:
include/profana/trace.h:
include/profana/op_call.h:
include/profana/strtab.h:
include/profana/satmath.h:
