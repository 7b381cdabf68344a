build-q/obj/formulas/elementwise.o: src/formulas/elementwise.c \
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
