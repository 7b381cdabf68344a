build-q/obj/rewrite/combine_write.o: src/rewrite/combine_write.c \
 src/rewrite/combine_internal.h include/profana/error.h \
 include/profana/jscan.h include/profana/mem.h include/profana/outfile.h \
 include/profana/trace_scan.h include/profana/splice.h \
 include/profana/trace.h include/profana/op_call.h \
 include/profana/strtab.h
src/rewrite/combine_internal.h:
include/profana/error.h:
include/profana/jscan.h:
include/profana/mem.h:
include/profana/outfile.h:
include/profana/trace_scan.h:
include/profana/splice.h:
include/profana/trace.h:
include/profana/op_call.h:
include/profana/strtab.h:
