/* Compiled for the other instruction set than work.c (Thumb for ARM builds, ARM for Thumb builds),
 * so that work() reaches it by an interworking call (BLX) and it returns by BX. */
__attribute__((noinline)) static int mix(int x, int y) { return (x << 3) ^ (y * 5) ^ (x >> 2); }

int other_isa(int x, int y) {
    int s = 0;
    for (int i = 0; i < 8; i++) s += mix(x + i, y - i);
    return s;
}
