build-q/obj/util/error.o: src/util/error.c include/profana/error.h
include/profana/error.h:
