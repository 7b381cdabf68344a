build-q/obj/formulas/args.o: src/formulas/args.c src/formulas/args.h \
 include/profana/formulas.h include/profana/dtype.h \
 include/profana/op_call.h include/profana/op_family.h \
 include/profana/satmath.h
src/formulas/args.h:
include/profana/formulas.h:
include/profana/dtype.h:
include/profana/op_call.h:
include/profana/op_family.h:
include/profana/satmath.h:
