/*
 * The ground-truth workload (tools/groundtruth/programs/common/work.c) with newlib around it: formatted
 * output, the heap, strings, sorting and conversion, so that the linked ELF file holds newlib's and
 * libgcc's code (with their aliases, e.g. __aeabi_i2d and __floatsidf at one address) next to ours.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int work(int round);

static int by_value(const void *a, const void *b) {
    long x = *(const long *) a, y = *(const long *) b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    char buf[128];
    long values[16];
    int acc = 0;
    for (int r = 0; r < 3; r++) acc += work(r);
    for (int i = 0; i < 16; i++) values[i] = (acc * 2654435761u) >> (i + 3);
    qsort(values, 16, sizeof values[0], by_value);
    char *copy = malloc(64);
    snprintf(buf, sizeof buf, "acc=%d first=%ld last=%ld %s", acc, values[0], values[15], argc > 1 ? argv[1] : "-");
    strncpy(copy, buf, 63);
    copy[63] = 0;
    long parsed = strtol(strchr(copy, '=') + 1, NULL, 10);
    printf("%s %ld %zu\n", copy, parsed, strlen(copy));
    free(copy);
    return (int) (parsed & 0x7f);
}
