build-q/obj/util/ptrmap.o: src/util/ptrmap.c include/profana/ptrmap.h
include/profana/ptrmap.h:
