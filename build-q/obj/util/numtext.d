build-q/obj/util/numtext.o: src/util/numtext.c include/profana/numtext.h
include/profana/numtext.h:
