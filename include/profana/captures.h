/* captures.h - vLLM's and SGLang's list of CUDA-graph capture traces (execution_details.json): its name, and how a file is told to be one. */
/* layer: catalog (docs/HACKING.md: One place per fact (tests)) */
#ifndef PROFANA_CAPTURES_H
#define PROFANA_CAPTURES_H

/* The list's file name, beside the capture traces it names: [{"file": NAME, "batch_size": N,
 * "mode": ...}, ...]. --graph-capture DIR reads the traces it lists (trace.h). */
#define PF_CAPTURE_LIST_NAME "execution_details.json"

/* 1 when the first 4 KB of the file at path read as a capture list (a "batch_size" and a
 * "file" member, and no event's "ph"), which a JSON-array trace reader takes for an empty
 * trace; 0 otherwise, and when the file cannot be read. Reads the file; keeps nothing. */
int pf_capture_list_is(const char *path);

#endif
