build-q/obj/util/i64map.o: src/util/i64map.c include/profana/i64map.h
include/profana/i64map.h:
