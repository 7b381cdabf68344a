build-q/obj/util/cpus.o: src/util/cpus.c include/profana/cpus.h
include/profana/cpus.h:
