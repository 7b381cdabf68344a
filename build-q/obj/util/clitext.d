build-q/obj/util/clitext.o: src/util/clitext.c include/profana/clitext.h
include/profana/clitext.h:
