build-q/obj/rewrite/augment.o: src/rewrite/augment.c \
 include/profana/augment.h include/profana/analysis.h \
 include/profana/categories.h include/profana/trace.h \
 include/profana/error.h include/profana/op_call.h \
 include/profana/strtab.h include/profana/devices.h \
 include/profana/dtype.h include/profana/devset.h \
 include/profana/formulas.h include/profana/rates.h \
 include/profana/splice.h include/profana/jscan.h \
 include/profana/numtext.h include/profana/outfile.h
include/profana/augment.h:
include/profana/analysis.h:
include/profana/categories.h:
include/profana/trace.h:
include/profana/error.h:
include/profana/op_call.h:
include/profana/strtab.h:
include/profana/devices.h:
include/profana/dtype.h:
include/profana/devset.h:
include/profana/formulas.h:
include/profana/rates.h:
include/profana/splice.h:
include/profana/jscan.h:
include/profana/numtext.h:
include/profana/outfile.h:
