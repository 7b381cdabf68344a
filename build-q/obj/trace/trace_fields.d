build-q/obj/trace/trace_fields.o: src/trace/trace_fields.c \
 src/trace/../json/jscan_prim.h include/profana/jscan.h \
 src/trace/trace_event.h include/profana/trace_scan.h
src/trace/../json/jscan_prim.h:
include/profana/jscan.h:
src/trace/trace_event.h:
include/profana/trace_scan.h:
