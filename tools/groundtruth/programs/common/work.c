/*
 * Workload shared by every ground-truth program. Each part exercises one kind of program flow a
 * trace protocol must get right:
 *   quicksort()      recursion and indirect calls through function pointers
 *   classify()       a dense switch: TBB (Thumb-2), ldrls pc (ARM), __gnu_thumb1_case_* (Thumb-1)
 *   big_switch()     a switch whose cases are far apart: TBH in Thumb-2
 *   straight()       straight-line code longer than 4096 bytes (PFT's waypoint bound)
 *   crc32()          a tight loop
 *   gcd(), clamp()   conditional execution (ARM) and IT blocks (Thumb-2)
 *   chain0..chain23  a call chain deeper than a 15-entry return stack
 *   other_isa()      a function in the other instruction set (ARM <-> Thumb interworking, BLX),
 *                    where the target has one (define HAVE_OTHER_ISA)
 */
typedef int (*cmp_fn)(int, int);
static int cmp_asc(int a, int b) { return a - b; }
static int cmp_desc(int a, int b) { return b - a; }

__attribute__((noinline)) static void swap(int *a, int *b) { int t = *a; *a = *b; *b = t; }

__attribute__((noinline)) static void quicksort(int *v, int lo, int hi, cmp_fn cmp) {
    if (lo >= hi) return;
    int p = v[(lo + hi) / 2], i = lo, j = hi;
    while (i <= j) {
        while (cmp(v[i], p) < 0) i++;
        while (cmp(v[j], p) > 0) j--;
        if (i <= j) { swap(&v[i], &v[j]); i++; j--; }
    }
    quicksort(v, lo, j, cmp);
    quicksort(v, i, hi, cmp);
}

__attribute__((noinline)) static int classify(int x) {
    switch (x & 7) {
    case 0: return x * 3;  case 1: return x + 11; case 2: return x ^ 0x55; case 3: return x - 7;
    case 4: return x << 2; case 5: return x >> 1; case 6: return ~x;      default: return 42;
    }
}

/* One round of a small mixing function: only small immediates, so no literal pool interrupts the
 * straight-line code. */
#define R(k)    x ^= x << 5; x += (k); y += x >> 3; y ^= y << 2;
#define R4(k)   R(k) R((k) + 1) R((k) + 2) R((k) + 3)
#define R16(k)  R4(k) R4((k) + 4) R4((k) + 8) R4((k) + 12)
#define R64(k)  R16(k) R16((k) + 16) R16((k) + 32) R16((k) + 48)

__attribute__((noinline)) static unsigned straight(unsigned x, unsigned y) {
    R64(1) R64(65) R64(129) R64(193)
    R64(3) R64(67) R64(131) R64(195)
    return x ^ y;
}

__attribute__((noinline)) static unsigned big_switch(int op, unsigned x) {
    unsigned y = (unsigned) op;
    switch (op) {
    case 0: R16(1) break;
    case 1: R16(17) break;
    case 2: R16(33) break;
    case 3: R16(49) break;
    case 4: R16(65) break;
    case 5: R16(81) break;
    case 6: R16(97) break;
    case 7: R16(113) break;
    case 8: R16(129) break;
    case 9: R16(145) break;
    default: return x + 1;
    }
    return x ^ y;
}

__attribute__((noinline)) static unsigned crc32(const unsigned char *p, int n) {
    unsigned crc = 0xFFFFFFFFu;
    while (n-- > 0) {
        crc ^= *p++;
        for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xEDB88320u & -(crc & 1u));
    }
    return ~crc;
}

__attribute__((noinline)) static int gcd(int a, int b) {
    while (a != b) { if (a > b) a -= b; else b -= a; }
    return a;
}

__attribute__((noinline)) static int clamp_sum(const int *v, int n, int lo, int hi) {
    int s = 0;
    for (int i = 0; i < n; i++) {
        int x = v[i];
        if (x < lo) x = lo;
        if (x > hi) x = hi;
        s += (x & 1) ? x : -x;
    }
    return s;
}

/* chain23 -> chain22 -> ... -> chain0: 24 nested calls, none a tail call */
__attribute__((noinline)) static int chain0(int x) { return x * 7 + 1; }
#define CHAIN(n, m) __attribute__((noinline)) static int chain##n(int x) { return chain##m(x + n) ^ n; }
CHAIN(1, 0) CHAIN(2, 1) CHAIN(3, 2) CHAIN(4, 3) CHAIN(5, 4) CHAIN(6, 5) CHAIN(7, 6) CHAIN(8, 7)
CHAIN(9, 8) CHAIN(10, 9) CHAIN(11, 10) CHAIN(12, 11) CHAIN(13, 12) CHAIN(14, 13) CHAIN(15, 14)
CHAIN(16, 15) CHAIN(17, 16) CHAIN(18, 17) CHAIN(19, 18) CHAIN(20, 19) CHAIN(21, 20) CHAIN(22, 21)
CHAIN(23, 22)

#ifdef HAVE_OTHER_ISA
extern int other_isa(int x, int y);   /* other_isa.c, compiled for the other instruction set */
#else
static int other_isa(int x, int y) { return x + y; }
#endif

int work(int round) {
    int v[24]; unsigned s = 12345u + (unsigned) round; int acc = 0;
    unsigned char buf[64];
    cmp_fn fns[2] = { cmp_asc, cmp_desc };
    for (int i = 0; i < 24; i++) { s = s * 1103515245u + 12345u; v[i] = (int)((s >> 16) & 0xff); }
    for (int k = 0; k < 2; k++) {
        quicksort(v, 0, 23, fns[k]);
        for (int i = 0; i < 24; i++) acc += classify(v[i]) * (i + 1);
    }
    acc += (int) straight((unsigned) acc, s);
    for (int i = 0; i < 12; i++) acc += (int) big_switch((i * 7 + round) % 11, (unsigned) acc);
    for (int i = 0; i < 64; i++) buf[i] = (unsigned char) (v[i % 24] + i);
    acc += (int) crc32(buf, 64);
    for (int i = 0; i < 12; i++) acc += gcd(v[i] + 1, v[23 - i] + 1);
    acc += clamp_sum(v, 24, 40, 200);
    acc += chain23(acc & 0xff);
    acc += other_isa(acc, round);
    return acc;
}
