build-q/obj/trace/trace_values.o: src/trace/trace_values.c \
 src/trace/../json/jscan_prim.h include/profana/jscan.h \
 src/trace/trace_event.h include/profana/trace_scan.h \
 src/trace/trace_values.h include/profana/trace.h include/profana/error.h \
 include/profana/op_call.h include/profana/strtab.h
src/trace/../json/jscan_prim.h:
include/profana/jscan.h:
src/trace/trace_event.h:
include/profana/trace_scan.h:
src/trace/trace_values.h:
include/profana/trace.h:
include/profana/error.h:
include/profana/op_call.h:
include/profana/strtab.h:
