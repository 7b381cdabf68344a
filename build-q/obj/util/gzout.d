build-q/obj/util/gzout.o: src/util/gzout.c include/profana/gzout.h
include/profana/gzout.h:
