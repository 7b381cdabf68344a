build-q/obj/trace/trace_graph.o: src/trace/trace_graph.c \
 include/profana/trace.h include/profana/error.h \
 include/profana/op_call.h include/profana/strtab.h src/trace/trace_vec.h
include/profana/trace.h:
include/profana/error.h:
include/profana/op_call.h:
include/profana/strtab.h:
src/trace/trace_vec.h:
