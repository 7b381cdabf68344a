build-q/obj/formulas/index_write.o: src/formulas/index_write.c \
 src/formulas/families.h src/formulas/args.h include/profana/formulas.h \
 include/profana/dtype.h include/profana/op_call.h \
 include/profana/op_family.h include/profana/satmath.h
src/formulas/families.h:
src/formulas/args.h:
include/profana/formulas.h:
include/profana/dtype.h:
include/profana/op_call.h:
include/profana/op_family.h:
include/profana/satmath.h:
