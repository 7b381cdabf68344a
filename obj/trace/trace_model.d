obj/trace/trace_model.o: src/trace/trace_model.c include/profana/i64map.h \
 src/trace/trace_internal.h include/profana/strtab.h \
 include/profana/trace.h include/profana/error.h \
 include/profana/op_call.h
include/profana/i64map.h:
src/trace/trace_internal.h:
include/profana/strtab.h:
include/profana/trace.h:
include/profana/error.h:
include/profana/op_call.h:
