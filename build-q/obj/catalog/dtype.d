build-q/obj/catalog/dtype.o: src/catalog/dtype.c include/profana/dtype.h
include/profana/dtype.h:
