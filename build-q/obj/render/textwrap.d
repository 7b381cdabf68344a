build-q/obj/render/textwrap.o: src/render/textwrap.c \
 include/profana/tabulate.h include/profana/jsonw.h
include/profana/tabulate.h:
include/profana/jsonw.h:
