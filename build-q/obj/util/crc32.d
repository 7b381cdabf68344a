build-q/obj/util/crc32.o: src/util/crc32.c include/profana/crc32.h
include/profana/crc32.h:
