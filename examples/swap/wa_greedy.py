# swap, a classic mistake: greedy, no search. Jump whenever a jump exists, else step (the first
# legal move found, looking left of the empty cell first); it says Impossible when it gets stuck,
# but a greedy choice can walk into a dead end or take a longer route than the minimum.
import sys

row = list(sys.stdin.read().split()[0])
goal = "B" * row.count("B") + "O" + "W" * row.count("W")


def moves(row):
    p = row.index("O")
    jumps, steps = [], []
    if p >= 1 and row[p - 1] == "W": steps.append(p - 1)
    if p + 1 < len(row) and row[p + 1] == "B": steps.append(p + 1)
    if p >= 2 and row[p - 2] == "W" and row[p - 1] == "B": jumps.append(p - 2)
    if p + 2 < len(row) and row[p + 2] == "B" and row[p + 1] == "W": jumps.append(p + 2)
    return jumps + steps


rows = []
while "".join(row) != goal:
    options = moves(row)
    if not options:
        print("Impossible")
        sys.exit(0)
    q, p = options[0], row.index("O")
    row[p], row[q] = row[q], "O"
    rows.append("".join(row))
print(len(rows))
for r in rows:
    print(r)
