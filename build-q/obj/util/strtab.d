build-q/obj/util/strtab.o: src/util/strtab.c include/profana/strtab.h
include/profana/strtab.h:
