build-q/obj/render/explain_view.o: src/render/explain_view.c \
 include/profana/explain_view.h include/profana/explain.h \
 include/profana/analysis.h include/profana/categories.h \
 include/profana/trace.h include/profana/error.h \
 include/profana/op_call.h include/profana/strtab.h \
 include/profana/devices.h include/profana/dtype.h \
 include/profana/devset.h include/profana/formulas.h \
 include/profana/rates.h include/profana/tabulate.h \
 include/profana/jsonw.h
include/profana/explain_view.h:
include/profana/explain.h:
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
include/profana/tabulate.h:
include/profana/jsonw.h:
