build-q/obj/catalog/devices.o: src/catalog/devices.c \
 include/profana/devices.h include/profana/dtype.h
include/profana/devices.h:
include/profana/dtype.h:
