build-q/obj/trace/trace_window.o: src/trace/trace_window.c \
 include/profana/mem.h src/trace/trace_reader.h include/profana/error.h \
 src/trace/trace_window.h
include/profana/mem.h:
src/trace/trace_reader.h:
include/profana/error.h:
src/trace/trace_window.h:
