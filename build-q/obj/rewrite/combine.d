build-q/obj/rewrite/combine.o: src/rewrite/combine.c \
 src/rewrite/combine_internal.h include/profana/error.h \
 include/profana/jscan.h include/profana/mem.h include/profana/outfile.h \
 include/profana/trace_scan.h include/profana/combine.h
src/rewrite/combine_internal.h:
include/profana/error.h:
include/profana/jscan.h:
include/profana/mem.h:
include/profana/outfile.h:
include/profana/trace_scan.h:
include/profana/combine.h:
