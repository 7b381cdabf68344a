build-q/obj/render/jsonw.o: src/render/jsonw.c include/profana/jsonw.h \
 include/profana/jscan.h
include/profana/jsonw.h:
include/profana/jscan.h:
