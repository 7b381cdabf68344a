obj/trace/trace_load.o: src/trace/trace_load.c include/profana/trace.h \
 include/profana/error.h include/profana/op_call.h \
 include/profana/strtab.h include/profana/cpus.h include/profana/jscan.h \
 include/profana/progress.h include/profana/parallel.h \
 src/trace/trace_event.h src/trace/../json/jscan_prim.h \
 include/profana/trace_scan.h src/trace/trace_internal.h
include/profana/trace.h:
include/profana/error.h:
include/profana/op_call.h:
include/profana/strtab.h:
include/profana/cpus.h:
include/profana/jscan.h:
include/profana/progress.h:
include/profana/parallel.h:
src/trace/trace_event.h:
src/trace/../json/jscan_prim.h:
include/profana/trace_scan.h:
src/trace/trace_internal.h:
