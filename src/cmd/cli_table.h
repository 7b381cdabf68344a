/* cli_table.h - the command line's two tables, commands and options, whose rows carry their actions and defaults, and what the parser, the checks and --help share of them (not a public interface). */
#ifndef PROFANA_CMD_CLI_TABLE_H
#define PROFANA_CMD_CLI_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "profana/cli.h"

#define PROFANA_VERSION "0.1.0"

/* Which commands, and which of their modes, an option applies to: giving one to another
 * command or mode is a usage error, not silently ignored. One bit per pf_mode: --analysis has
 * three modes, its rows table (ON_TABLE, when no mode option is given), --explain and --steps
 * (ACT_MODE rows). */
#define ON(mode) (1u << (mode))
enum { ON_TABLE = ON(PF_MODE_TABLE), ON_DIFF = ON(PF_MODE_DIFF), ON_AUGMENT = ON(PF_MODE_AUGMENT),
       ON_COMBINE = ON(PF_MODE_COMBINE), ON_DEVICES = ON(PF_MODE_DEVICES), ON_RANKS = ON(PF_MODE_RANKS),
       ON_EXPLAIN = ON(PF_MODE_EXPLAIN), ON_STEPS = ON(PF_MODE_STEPS),
       ON_ANALYSIS = ON_TABLE | ON_EXPLAIN | ON_STEPS,
       ON_LOADERS = ON_ANALYSIS | ON_DIFF | ON_AUGMENT | ON_COMBINE | ON_RANKS,
       ON_DEVICE_FILE = ON_ANALYSIS | ON_DIFF | ON_AUGMENT | ON_DEVICES }; /* read --device-file, $PROFANA_DEVICES */

/* In an option's help: the column names of the views' tables (pf_view_columns_help). */
#define COLUMNS_MARK "{columns}"

/* What a positional argument is (command.pos): an input trace, which - (standard input) may
 * stand for once; a path read twice (a trace or a directory: never standard input, which the
 * command refuses); a name; an output file; the DTYPE. POS_REPEAT after a letter: that
 * argument repeats, once or more. */
enum { POS_INPUT = 'I', POS_PATH = 'P', POS_NAME = 'N', POS_OUTPUT = 'O', POS_DTYPE = 'D', POS_REPEAT = '+' };

typedef struct command {
    const char *name;
    unsigned bit;              /* ON_* of the command, all its modes */
    pf_mode plain;             /* the command's mode when no mode option is given */
    const char *args;          /* positional arguments, for usage lines */
    const char *pos;           /* what each positional is, a letter each (POS_*); a '+' after a
                                  letter: that one repeats (once or more) */
    const char *help;
    const char *example;       /* one command line for --help and the man page; tests run each
                                  with trace.json, a.json, b.json replaced by real traces */
} command;

/* What an option does with its values. Every row names one: there is no zero kind, the rows
 * are written with the OPT_* macros of cli_options.c, each of which asks for what its kind
 * needs, and cli_parse.c's apply_option has a case per kind (-Wswitch). */
typedef enum opt_kind {
    ACT_SET = 1,               /* a flag: the int at off becomes 1 */
    ACT_CLEAR,                 /* a flag: the int at off becomes 0 */
    ACT_COUNT,                 /* N: a whole number from 0 to 1000000 into the int at off */
    ACT_STRING,                /* a non-empty value: the const char * at off points at it */
    ACT_ENUM,                  /* one of choices: its index into the int-sized enum at off */
    ACT_CALLBACK,              /* cb(cli, option, value, second value) */
    ACT_EXIT,                  /* cb(...) is the exit status, and nothing more is parsed */
    ACT_MODE,                  /* a command mode (git's OPT_CMDMODE): one at a time; pf_cli.mode
                                  becomes the row's mode, and a value, when it takes one, goes
                                  to the const char * at off as ACT_STRING's */
} opt_kind;

typedef struct option option;
typedef int (*opt_cb)(pf_cli *cli, const option *o, const char *v, const char *v2);

struct option {
    const char *name;
    const char *arg;           /* NULL for a flag */
    const char *help;          /* "{default}" in it stands for def; without one, --help appends
                                  " (default DEF)" when there is a def */
    int nvals;                 /* values it takes: 0 for a flag, 1, or 2 (--plot KIND FILE) */
    unsigned on;               /* ON_* of the commands it applies to */
    opt_kind kind;
    size_t off;                /* offsetof the pf_cli member it sets (SET, CLEAR, COUNT, STRING,
                                  ENUM, a MODE with a value) */
    const char *const *choices;/* ACT_ENUM: the names by value, NULL-terminated */
    opt_cb cb;                 /* ACT_CALLBACK, ACT_EXIT */
    const char *def;           /* the default as one would type it: applied before parsing and
                                  shown by --help; NULL when there is none to show */
    pf_mode mode;              /* ACT_MODE: the mode it selects; PF_MODE_NONE otherwise */
    const char *refusal;       /* ACT_MODE: why an option the mode does not take (its `on` lacks
                                  the mode's bit), or another mode, is refused */
};

/* The tables (cli_options.c), in the order --help lists them. */
extern const command pf_cli_commands[];
extern const size_t pf_cli_n_commands;
extern const option pf_cli_options[];
extern const size_t pf_cli_n_options;

/* What the command line gave, as cli_parse.c found it. */
enum { MAX_OPTIONS = 64 };

typedef struct parsed {
    const command *cmd;        /* NULL until a command is given */
    const option *mode;        /* the first ACT_MODE option given; NULL: the command's plain mode */
    const option *clash;       /* another mode given after it, refused once the command is known */
    unsigned char given[MAX_OPTIONS]; /* given[i]: pf_cli_options[i] was on the command line */
    int done;                  /* an option ended the run (--help, --version) */
} parsed;

/* cli_options.c: the row named by the n characters at s ('-' and '_' alike after "--"); NULL
 * when none is. */
const option *pf_cli_find_option(const char *s, size_t n);

/* The command whose name s spells ('-' and '_' alike after the leading "--"); NULL none. */
const command *pf_cli_find_command(const char *s);

/* cli_check.c: what the parsed command line may not do, refused before anything is read:
 * options that do not apply to its command or mode, or not together, columns, positionals,
 * outputs named twice. Returns 0 or an exit status. */
int pf_cli_check(pf_cli *cli, const parsed *p);

/* cli_check.c: reads the device file (--device-file, else $PROFANA_DEVICES, for the commands
 * that match devices) into devices at the --clock, and resolves --device against it. Returns
 * 0 or an exit status. */
int pf_cli_resolve_devices(pf_cli *cli, const command *cmd, pf_devset *devices);

/* cli_help.c: --help and --man, written from the tables. */
void pf_cli_print_help(FILE *out);
void pf_cli_print_man(FILE *out);

#endif
