# flip, a classic mistake: only ever aims for an all-white field.
import sys
from collections import deque

board = 0
for r, line in enumerate(sys.stdin.read().split()[:4]):
    for c, ch in enumerate(line):
        if ch == "b":
            board |= 1 << (r * 4 + c)

masks = []
for i in range(16):
    r, c = divmod(i, 4)
    m = 1 << i
    if r > 0: m |= 1 << (i - 4)
    if r < 3: m |= 1 << (i + 4)
    if c > 0: m |= 1 << (i - 1)
    if c < 3: m |= 1 << (i + 1)
    masks.append(m)

dist = {board: 0}
queue = deque([board])
while queue:
    b = queue.popleft()
    if b == 0:  # the bug: all-black (0xFFFF) is a goal too
        print(dist[b])
        sys.exit(0)
    for m in masks:
        n = b ^ m
        if n not in dist:
            dist[n] = dist[b] + 1
            queue.append(n)
print("Impossible")
