# fourinrow, a classic mistake: black always moves first (either colour may start).
import sys
from collections import deque

LINES = [[4 * r + c for c in range(4)] for r in range(4)]
LINES += [[4 * r + c for r in range(4)] for c in range(4)]
LINES += [[0, 5, 10, 15], [3, 6, 9, 12]]


def won(b):
    return any(b[l[0]] != "O" and b[l[0]] == b[l[1]] == b[l[2]] == b[l[3]] for l in LINES)


board = "".join(line[:4] for line in sys.stdin.read().split()[:4])
start = board + "B"  # the bug: a start with white to move is never searched
dist = {start: 0}
queue = deque([start])
while queue:
    s = queue.popleft()
    if won(s):
        print(dist[s])
        sys.exit(0)
    mover, other = s[16], "W" if s[16] == "B" else "B"
    for e in range(16):
        if s[e] != "O":
            continue
        r, c = divmod(e, 4)
        for f, ok in ((e - 4, r > 0), (e + 4, r < 3), (e - 1, c > 0), (e + 1, c < 3)):
            if ok and s[f] == mover:
                t = list(s)
                t[e], t[f], t[16] = mover, "O", other
                t = "".join(t)
                if t not in dist:
                    dist[t] = dist[s] + 1
                    queue.append(t)
print("Impossible")
