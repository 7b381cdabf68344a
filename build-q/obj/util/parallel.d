build-q/obj/util/parallel.o: src/util/parallel.c \
 include/profana/parallel.h include/profana/cpus.h
include/profana/parallel.h:
include/profana/cpus.h:
