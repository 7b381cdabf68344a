build-q/obj/rewrite/combine_plan.o: src/rewrite/combine_plan.c \
 src/rewrite/combine_internal.h include/profana/error.h \
 include/profana/jscan.h include/profana/mem.h include/profana/outfile.h \
 include/profana/trace_scan.h include/profana/i64map.h
src/rewrite/combine_internal.h:
include/profana/error.h:
include/profana/jscan.h:
include/profana/mem.h:
include/profana/outfile.h:
include/profana/trace_scan.h:
include/profana/i64map.h:
