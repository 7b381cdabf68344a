build-q/obj/util/progress.o: src/util/progress.c \
 include/profana/progress.h
include/profana/progress.h:
