build-q/obj/render/tabulate.o: src/render/tabulate.c \
 include/profana/tabulate.h include/profana/jsonw.h \
 include/profana/names.h
include/profana/tabulate.h:
include/profana/jsonw.h:
include/profana/names.h:
