build-q/obj/trace/trace_reader.o: src/trace/trace_reader.c \
 include/profana/crc32.h include/profana/gzout.h \
 include/profana/timings.h src/trace/trace_reader.h \
 include/profana/error.h
include/profana/crc32.h:
include/profana/gzout.h:
include/profana/timings.h:
src/trace/trace_reader.h:
include/profana/error.h:
