/*
 * Text handling through newlib: a small tokenizer and table with sscanf, strtod, string functions,
 * character classes, a hash table on the heap, bsearch and sprintf, and a state machine switch.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct entry {
    char key[16];
    double value;
    struct entry *next;
};

static struct entry *table[31];

__attribute__((noinline)) static unsigned hash(const char *s) {
    unsigned h = 5381;
    while (*s) h = h * 33 + (unsigned char) tolower((unsigned char) *s++);
    return h % 31;
}

__attribute__((noinline)) static void put(const char *k, double v) {
    struct entry *e = calloc(1, sizeof *e);
    strncpy(e->key, k, sizeof e->key - 1);
    e->value = v;
    unsigned h = hash(k);
    e->next = table[h];
    table[h] = e;
}

__attribute__((noinline)) static int kind(int c) {
    switch (c) {
    case ' ': case '\t': return 0;
    case '=': return 1;
    case ';': return 2;
    case '#': return 3;
    default: return isalpha(c) ? 4 : isdigit(c) || c == '.' || c == '-' ? 5 : 6;
    }
}

static int cmp_int(const void *a, const void *b) {
    return *(const int *) a - *(const int *) b;
}

int main(void) {
    static const char input[] = "alpha = 1.5; beta=-2e3 ;gamma= 0.25 # comment\ndelta = 42;";
    char key[16], number[32];
    int state = 0, k = 0, n = 0, counts[7] = {0};
    for (const char *p = input; *p; p++) {
        int t = kind(*p);
        counts[t]++;
        switch (state) {
        case 0: if (t == 4) { key[k++] = *p; state = 1; } else if (t == 3) state = 3; break;
        case 1: if (t == 4 && k < 15) key[k++] = *p; else if (t == 1) { key[k] = 0; k = 0; state = 2; } break;
        case 2: if (t == 5 && n < 31) number[n++] = *p; else if (t == 2 || *p == '\n') {
                    number[n] = 0; put(key, strtod(number, NULL)); n = 0; state = 0; } break;
        case 3: if (*p == '\n') state = 0; break;
        }
    }
    int sorted[7];
    memcpy(sorted, counts, sizeof sorted);
    qsort(sorted, 7, sizeof sorted[0], cmp_int);
    int want = counts[4];
    int *found = bsearch(&want, sorted, 7, sizeof sorted[0], cmp_int);
    char line[96];
    int len = 0;
    for (unsigned h = 0; h < 31; h++)
        for (struct entry *e = table[h]; e; e = e->next)
            len += snprintf(line + len % 64, sizeof line - len % 64, "%s:%.2f ", e->key, e->value);
    int a = 0, b = 0;
    sscanf("17 25", "%d %d", &a, &b);
    printf("%s|%d|%d\n", line, found ? (int) (found - sorted) : -1, a * b + len);
    return 0;
}
