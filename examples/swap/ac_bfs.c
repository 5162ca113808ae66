/* swap (black-and-white swap puzzle): breadth-first search from the start row, state = empty
 * cell + colours of the other cells; each state remembers the move that reached it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int n, len;            /* n pieces, len = n + 1 cells */
static unsigned char *how;    /* 0 = unseen, 3 = start, else 3 + d: piece now at empty+d */

static int encode(const char *row) {
    int pos = 0, mask = 0, k = 0;
    for (int i = 0; i < len; i++) {
        if (row[i] == 'O') pos = i;
        else mask |= (row[i] == 'B') << k++;
    }
    return pos << n | mask;
}

static void decode(int s, char *row) {
    int pos = s >> n, k = 0;
    for (int i = 0; i < len; i++)
        row[i] = i == pos ? 'O' : ((s >> k++) & 1 ? 'B' : 'W');
    row[len] = 0;
}

int main(void) {
    char row[32], goal[32], next[32];
    if (scanf("%31s", row) != 1) return 1;
    len = strlen(row);
    n = len - 1;
    int w = 0, b = 0;
    for (int i = 0; i < len; i++) w += row[i] == 'W', b += row[i] == 'B';
    memset(goal, 'B', b);
    goal[b] = 'O';
    memset(goal + b + 1, 'W', w);
    goal[len] = 0;

    int states = len << n, target = encode(goal);
    how = calloc(states, 1);
    int *queue = malloc(sizeof(int) * states);
    int head = 0, tail = 0, start = encode(row);
    how[start] = 3;
    queue[tail++] = start;
    while (head < tail && !how[target]) {
        int s = queue[head++], p = s >> n;
        decode(s, row);
        for (int d = -2; d <= 2; d++) {          /* the piece at p+d moves into p */
            int q = p + d;
            if (d == 0 || q < 0 || q >= len) continue;
            char c = row[q];
            if ((c == 'W') != (d < 0)) continue;  /* W moves right (from the left), B left */
            if ((d == 2 || d == -2) && row[p + d / 2] == c) continue; /* jump only over the other colour */
            memcpy(next, row, len + 1);
            next[p] = c;
            next[q] = 'O';
            int t = encode(next);
            if (!how[t]) {
                how[t] = 3 + (p - q);            /* in the new row the piece sits at empty+(p-q) */
                queue[tail++] = t;
            }
        }
    }
    if (!how[target]) {
        printf("Impossible\n");
        return 0;
    }
    /* walk back from the goal, then print the rows in forward order */
    int k = 0;
    for (int s = target; how[s] != 3; k++) {
        queue[k] = s;
        int q = s >> n, d = how[s] - 3;
        decode(s, row);
        row[q] = row[q + d];
        row[q + d] = 'O';
        s = encode(row);
    }
    printf("%d\n", k);
    while (k-- > 0) {
        decode(queue[k], row);
        printf("%s\n", row);
    }
    return 0;
}
