build-q/obj/json/jscan.o: src/json/jscan.c include/profana/jscan.h \
 src/json/jscan_prim.h
include/profana/jscan.h:
src/json/jscan_prim.h:
