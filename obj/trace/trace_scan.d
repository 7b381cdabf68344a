obj/trace/trace_scan.o: src/trace/trace_scan.c \
 src/trace/../json/jscan_prim.h include/profana/jscan.h \
 include/profana/mem.h src/trace/trace_event.h \
 include/profana/trace_scan.h src/trace/trace_internal.h \
 include/profana/strtab.h include/profana/trace.h include/profana/error.h \
 include/profana/op_call.h
src/trace/../json/jscan_prim.h:
include/profana/jscan.h:
include/profana/mem.h:
src/trace/trace_event.h:
include/profana/trace_scan.h:
src/trace/trace_internal.h:
include/profana/strtab.h:
include/profana/trace.h:
include/profana/error.h:
include/profana/op_call.h:
