obj/render/tabulate.o: src/render/tabulate.c include/profana/tabulate.h
include/profana/tabulate.h:
