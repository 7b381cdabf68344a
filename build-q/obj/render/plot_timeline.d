build-q/obj/render/plot_timeline.o: src/render/plot_timeline.c \
 include/profana/plot.h include/profana/analysis.h \
 include/profana/categories.h include/profana/trace.h \
 include/profana/error.h include/profana/op_call.h \
 include/profana/strtab.h include/profana/devices.h \
 include/profana/dtype.h include/profana/devset.h \
 include/profana/formulas.h include/profana/rates.h include/profana/svg.h \
 include/profana/waits.h
include/profana/plot.h:
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
include/profana/svg.h:
include/profana/waits.h:
