build-q/obj/render/svg.o: src/render/svg.c include/profana/svg.h
include/profana/svg.h:
