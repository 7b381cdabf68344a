build-q/obj/catalog/op_family.o: src/catalog/op_family.c \
 include/profana/op_family.h
include/profana/op_family.h:
