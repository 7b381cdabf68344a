build-q/obj/trace/trace_model.o: src/trace/trace_model.c \
 include/profana/i64map.h include/profana/mem.h \
 include/profana/op_family.h include/profana/parallel.h \
 src/trace/trace_model.h include/profana/trace.h include/profana/error.h \
 include/profana/op_call.h include/profana/strtab.h src/trace/trace_vec.h \
 src/trace/trace_records.h
include/profana/i64map.h:
include/profana/mem.h:
include/profana/op_family.h:
include/profana/parallel.h:
src/trace/trace_model.h:
include/profana/trace.h:
include/profana/error.h:
include/profana/op_call.h:
include/profana/strtab.h:
src/trace/trace_vec.h:
src/trace/trace_records.h:
