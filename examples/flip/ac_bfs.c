/* flip (POJ 1753): breadth-first search over the 2^16 boards from the start board. */
#include <stdio.h>
#include <string.h>

static int dist[1 << 16];
static int queue[1 << 16];

int main(void) {
    char line[16];
    int board = 0;
    for (int r = 0; r < 4; r++) {
        if (scanf("%15s", line) != 1) return 1;
        for (int c = 0; c < 4; c++)
            if (line[c] == 'b') board |= 1 << (r * 4 + c);
    }
    int masks[16];
    for (int i = 0; i < 16; i++) {
        int r = i / 4, c = i % 4, m = 1 << i;
        if (r > 0) m |= 1 << (i - 4);
        if (r < 3) m |= 1 << (i + 4);
        if (c > 0) m |= 1 << (i - 1);
        if (c < 3) m |= 1 << (i + 1);
        masks[i] = m;
    }
    memset(dist, -1, sizeof dist);
    int head = 0, tail = 0;
    dist[board] = 0;
    queue[tail++] = board;
    while (head < tail) {
        int b = queue[head++];
        if (b == 0 || b == 0xFFFF) {
            printf("%d\n", dist[b]);
            return 0;
        }
        for (int i = 0; i < 16; i++) {
            int n = b ^ masks[i];
            if (dist[n] < 0) {
                dist[n] = dist[b] + 1;
                queue[tail++] = n;
            }
        }
    }
    printf("Impossible\n");
    return 0;
}
