build-q/obj/rewrite/splice.o: src/rewrite/splice.c \
 include/profana/splice.h include/profana/jscan.h \
 include/profana/parallel.h include/profana/mem.h \
 src/rewrite/../json/jscan_prim.h
include/profana/splice.h:
include/profana/jscan.h:
include/profana/parallel.h:
include/profana/mem.h:
src/rewrite/../json/jscan_prim.h:
