build-q/obj/catalog/names.o: src/catalog/names.c include/profana/names.h
include/profana/names.h:
