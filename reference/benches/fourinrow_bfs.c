/* The baseline of `cargo bench -p reference`: a plain C breadth-first search over the
 * same 823,680 fourinrow states (board, colour to move next), backward from the goals, as
 * a contestant or a setter would write it: boards in base 3 (0 empty, 1 B, 2 W), a flat
 * distance array over all 3^16 codes. Prints the median wall time of its runs in milliseconds and
 * the answer histogram (so a wrong baseline cannot pass unnoticed). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CODES 43046721
#define RUNS 7

static const int LINES[10][4] = {
    {0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}, {12, 13, 14, 15},
    {0, 4, 8, 12}, {1, 5, 9, 13}, {2, 6, 10, 14}, {3, 7, 11, 15},
    {0, 5, 10, 15}, {3, 6, 9, 12}};
static int pow3[16];
static unsigned char *dist;
static unsigned int *queue;

static void decode(unsigned int code, int cells[16]) {
    for (int i = 0; i < 16; i++) { cells[i] = code % 3; code /= 3; }
}

static int is_goal(const int cells[16]) {
    for (int l = 0; l < 10; l++) {
        int c = cells[LINES[l][0]];
        if (c && c == cells[LINES[l][1]] && c == cells[LINES[l][2]] && c == cells[LINES[l][3]])
            return 1;
    }
    return 0;
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Calls `visit` with every valid board: 2 empty squares, 7 B among the other 14. */
static void for_each_board(void (*visit)(unsigned int code, const int cells[16])) {
    int cells[16];
    for (int i = 0; i < 16; i++)
        for (int j = i + 1; j < 16; j++)
            for (int mask = 0; mask < (1 << 14); mask++) {
                if (__builtin_popcount(mask) != 7) continue;
                unsigned int code = 0;
                for (int s = 0, k = 0; s < 16; s++) {
                    if (s == i || s == j) { cells[s] = 0; continue; }
                    cells[s] = (mask >> k++) & 1 ? 1 : 2;
                    code += cells[s] * pow3[s];
                }
                visit(code, cells);
            }
}

static size_t tail;
static long histogram[8];

static void seed_goal(unsigned int code, const int cells[16]) {
    if (is_goal(cells)) {
        dist[code * 2] = dist[code * 2 + 1] = 0;
        queue[tail++] = code * 2;
        queue[tail++] = code * 2 + 1;
    }
}

/* The answer of a board is the smaller of its two states. */
static void count_answer(unsigned int code, const int cells[16]) {
    (void)cells;
    int a = dist[code * 2], b = dist[code * 2 + 1];
    histogram[a < b ? a : b]++;
}

static void bfs(void) {
    memset(dist, 0xFF, (size_t)CODES * 2);
    size_t head = 0;
    int cells[16];
    tail = 0;
    for_each_board(seed_goal);
    while (head < tail) {
        unsigned int state = queue[head++];
        unsigned int code = state / 2;
        int next = state % 2; /* 0: B to move, 1: W to move */
        int mover = next ? 1 : 2; /* the colour that moved to get here */
        decode(code, cells);
        for (int e = 0; e < 16; e++) {
            if (cells[e]) continue;
            int r = e / 4, c = e % 4;
            int from[4], n = 0;
            if (r > 0) from[n++] = e - 4;
            if (r < 3) from[n++] = e + 4;
            if (c > 0) from[n++] = e - 1;
            if (c < 3) from[n++] = e + 1;
            for (int k = 0; k < n; k++) {
                int s = from[k];
                if (cells[s] != mover) continue;
                cells[e] = mover; cells[s] = 0;
                unsigned int before = code + mover * pow3[e] - mover * pow3[s];
                unsigned int index = before * 2 + (mover == 2);
                if (dist[index] == 0xFF && !is_goal(cells)) {
                    dist[index] = dist[state] + 1;
                    queue[tail++] = index;
                }
                cells[s] = mover; cells[e] = 0;
            }
        }
    }
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(void) {
    pow3[0] = 1;
    for (int i = 1; i < 16; i++) pow3[i] = pow3[i - 1] * 3;
    dist = malloc((size_t)CODES * 2);
    queue = malloc(sizeof(unsigned int) * 823680);
    double times[RUNS];
    for (int run = 0; run < RUNS; run++) {
        double start = now_ms();
        bfs();
        times[run] = now_ms() - start;
    }
    qsort(times, RUNS, sizeof(double), cmp);
    for_each_board(count_answer);
    printf("%.3f", times[RUNS / 2]);
    for (int d = 0; d < 8; d++) printf(" %ld", histogram[d]);
    printf("\n");
    return 0;
}
