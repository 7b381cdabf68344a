build-q/obj/util/outfile.o: src/util/outfile.c include/profana/outfile.h \
 include/profana/error.h include/profana/gzout.h
include/profana/outfile.h:
include/profana/error.h:
include/profana/gzout.h:
