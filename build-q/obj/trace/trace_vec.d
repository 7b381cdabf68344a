build-q/obj/trace/trace_vec.o: src/trace/trace_vec.c \
 src/trace/trace_vec.h
src/trace/trace_vec.h:
