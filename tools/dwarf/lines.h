static inline int square(int v)
{
    return v * v + 1;
}
