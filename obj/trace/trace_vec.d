obj/trace/trace_vec.o: src/trace/trace_vec.c src/trace/trace_internal.h \
 include/profana/strtab.h include/profana/trace.h include/profana/error.h \
 include/profana/op_call.h
src/trace/trace_internal.h:
include/profana/strtab.h:
include/profana/trace.h:
include/profana/error.h:
include/profana/op_call.h:
