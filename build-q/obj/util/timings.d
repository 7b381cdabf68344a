build-q/obj/util/timings.o: src/util/timings.c include/profana/timings.h
include/profana/timings.h:
