obj/trace/trace_reader.o: src/trace/trace_reader.c \
 include/profana/crc32.h src/trace/trace_internal.h \
 include/profana/strtab.h include/profana/trace.h include/profana/error.h \
 include/profana/op_call.h
include/profana/crc32.h:
src/trace/trace_internal.h:
include/profana/strtab.h:
include/profana/trace.h:
include/profana/error.h:
include/profana/op_call.h:
