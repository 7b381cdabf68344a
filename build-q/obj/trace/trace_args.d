build-q/obj/trace/trace_args.o: src/trace/trace_args.c \
 include/profana/trace.h include/profana/error.h \
 include/profana/op_call.h include/profana/strtab.h \
 src/trace/trace_model.h src/trace/trace_vec.h
include/profana/trace.h:
include/profana/error.h:
include/profana/op_call.h:
include/profana/strtab.h:
src/trace/trace_model.h:
src/trace/trace_vec.h:
