build-q/obj/trace/trace_load.o: src/trace/trace_load.c \
 include/profana/trace.h include/profana/error.h \
 include/profana/op_call.h include/profana/strtab.h \
 include/profana/cpus.h include/profana/jscan.h \
 include/profana/progress.h include/profana/parallel.h \
 include/profana/timings.h src/trace/trace_event.h \
 src/trace/../json/jscan_prim.h include/profana/trace_scan.h \
 src/trace/trace_chunk.h src/trace/trace_vec.h src/trace/trace_window.h \
 src/trace/trace_reader.h src/trace/trace_model.h
include/profana/trace.h:
include/profana/error.h:
include/profana/op_call.h:
include/profana/strtab.h:
include/profana/cpus.h:
include/profana/jscan.h:
include/profana/progress.h:
include/profana/parallel.h:
include/profana/timings.h:
src/trace/trace_event.h:
src/trace/../json/jscan_prim.h:
include/profana/trace_scan.h:
src/trace/trace_chunk.h:
src/trace/trace_vec.h:
src/trace/trace_window.h:
src/trace/trace_reader.h:
src/trace/trace_model.h:
