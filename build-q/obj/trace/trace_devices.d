build-q/obj/trace/trace_devices.o: src/trace/trace_devices.c \
 include/profana/jscan.h include/profana/mem.h src/trace/trace_model.h \
 include/profana/trace.h include/profana/error.h \
 include/profana/op_call.h include/profana/strtab.h src/trace/trace_vec.h
include/profana/jscan.h:
include/profana/mem.h:
src/trace/trace_model.h:
include/profana/trace.h:
include/profana/error.h:
include/profana/op_call.h:
include/profana/strtab.h:
src/trace/trace_vec.h:
