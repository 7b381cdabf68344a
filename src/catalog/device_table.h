/* device_table.h - private to src/catalog: the built-in GPU datasheet table (device_table.c), which devices.c matches trace devices against. */
#ifndef PROFANA_CATALOG_DEVICE_TABLE_H
#define PROFANA_CATALOG_DEVICE_TABLE_H

#include "profana/devices.h"

/* Rows the table may hold (device_table.c asserts it): a lookup keeps one int per row on the stack. */
enum { PF_DEVICE_TABLE_CAP = 128 };

/* The rows, in matching order, and their number. */
extern const pf_device_info pf_device_table[];
extern const int pf_device_table_len;

#endif
