build-q/obj/trace/trace_records.o: src/trace/trace_records.c \
 src/trace/../json/jscan_prim.h include/profana/jscan.h \
 src/trace/trace_chunk.h include/profana/error.h include/profana/strtab.h \
 src/trace/trace_vec.h src/trace/trace_window.h src/trace/trace_reader.h \
 src/trace/trace_event.h include/profana/trace_scan.h \
 src/trace/trace_records.h include/profana/trace.h \
 include/profana/op_call.h src/trace/trace_values.h
src/trace/../json/jscan_prim.h:
include/profana/jscan.h:
src/trace/trace_chunk.h:
include/profana/error.h:
include/profana/strtab.h:
src/trace/trace_vec.h:
src/trace/trace_window.h:
src/trace/trace_reader.h:
src/trace/trace_event.h:
include/profana/trace_scan.h:
src/trace/trace_records.h:
include/profana/trace.h:
include/profana/op_call.h:
src/trace/trace_values.h:
