build-q/obj/rewrite/combine_read.o: src/rewrite/combine_read.c \
 src/rewrite/combine_internal.h include/profana/error.h \
 include/profana/jscan.h include/profana/mem.h include/profana/outfile.h \
 include/profana/trace_scan.h include/profana/parallel.h \
 include/profana/trace.h include/profana/op_call.h \
 include/profana/strtab.h
src/rewrite/combine_internal.h:
include/profana/error.h:
include/profana/jscan.h:
include/profana/mem.h:
include/profana/outfile.h:
include/profana/trace_scan.h:
include/profana/parallel.h:
include/profana/trace.h:
include/profana/op_call.h:
include/profana/strtab.h:
