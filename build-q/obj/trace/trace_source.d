build-q/obj/trace/trace_source.o: src/trace/trace_source.c \
 include/profana/trace.h include/profana/error.h \
 include/profana/op_call.h include/profana/strtab.h \
 include/profana/gzout.h include/profana/mem.h src/trace/trace_reader.h
include/profana/trace.h:
include/profana/error.h:
include/profana/op_call.h:
include/profana/strtab.h:
include/profana/gzout.h:
include/profana/mem.h:
src/trace/trace_reader.h:
