build-q/obj/trace/op_call.o: src/trace/op_call.c \
 include/profana/op_call.h include/profana/dtype.h \
 include/profana/satmath.h
include/profana/op_call.h:
include/profana/dtype.h:
include/profana/satmath.h:
