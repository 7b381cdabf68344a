build-q/obj/analysis/categories.o: src/analysis/categories.c \
 include/profana/categories.h include/profana/trace.h \
 include/profana/error.h include/profana/op_call.h \
 include/profana/strtab.h include/profana/op_family.h
include/profana/categories.h:
include/profana/trace.h:
include/profana/error.h:
include/profana/op_call.h:
include/profana/strtab.h:
include/profana/op_family.h:
