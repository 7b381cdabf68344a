build-q/obj/catalog/devset.o: src/catalog/devset.c \
 include/profana/devset.h include/profana/devices.h \
 include/profana/dtype.h include/profana/error.h include/profana/jscan.h
include/profana/devset.h:
include/profana/devices.h:
include/profana/dtype.h:
include/profana/error.h:
include/profana/jscan.h:
