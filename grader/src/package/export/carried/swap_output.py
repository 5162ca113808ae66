# Output validator of the exported `swap` package: the checker of the grader's
# docs/problems.md and docs/judging.md, as a program of the package format's interface,
#     swap_output.py INPUT ANSWER FEEDBACK_DIR [flags...] < OUTPUT
# exit 42 when the output is a correct answer, 43 when not, with why in
# FEEDBACK_DIR/judgemessage.txt. The answer file gives the minimum number of moves (or
# Impossible); any sequence of that many legal moves ending at the goal is accepted.
#
# Lines are read as judging.md says: `\r\n` ends a line as `\n` does, spaces and tabs at the
# end of a line and empty lines at the end of the output are ignored. The package format has
# no presentation error: a right sequence laid out wrongly is a wrong answer here.
import os
import sys


def lines_of(data):
    lines = [line.rstrip(b"\r").rstrip(b" \t") for line in data.split(b"\n")]
    while lines and lines[-1] == b"":
        lines.pop()
    return lines


def verdict(feedback_dir, accepted, message):
    with open(os.path.join(feedback_dir, "judgemessage.txt"), "w") as out:
        out.write(message + "\n")
    sys.exit(42 if accepted else 43)


def shown(line):
    return repr(line.decode("utf-8", "replace"))


def legal(before, after):
    """Whether `after` follows from `before` by one step or jump (problems.md's rules)."""
    if len(after) != len(before) or after.count("O") != 1:
        return False
    empty, moved = before.index("O"), after.index("O")
    piece = before[moved]
    expected = list(before)
    expected[empty], expected[moved] = piece, "O"
    if after != "".join(expected):
        return False
    if piece == "W" and moved == empty - 1:
        return True
    if piece == "B" and moved == empty + 1:
        return True
    if piece == "W" and moved == empty - 2:
        return before[empty - 1] == "B"
    if piece == "B" and moved == empty + 2:
        return before[empty + 1] == "W"
    return False


def judge(start, minimum, output):
    """None when `output` is accepted, else why not."""
    lines = lines_of(output)
    if minimum is None:
        if lines == [b"Impossible"]:
            return None
        first = shown(lines[0]) if lines else "nothing"
        return "line 1: expected Impossible (the goal cannot be reached), got %s" % first
    if not lines:
        return "the output is empty"
    if not lines[0].isdigit():
        return "line 1: expected the number of moves, got %s" % shown(lines[0])
    count = int(lines[0])
    if count != minimum:
        return "line 1: %d moves; the minimum is %d" % (count, minimum)
    goal = "B" * start.count("B") + "O" + "W" * start.count("W")
    row = start
    for number, line in enumerate(lines[1:], 2):
        if number > count + 1:
            return "line %d: expected the end of the output, got %s" % (number, shown(line))
        text = line.decode("ascii", "replace")
        if not legal(row, text):
            return "line %d: %s is not one legal move from %s" % (number, shown(line), row)
        row = text
    if len(lines) < count + 1:
        return "line %d: expected %d rows, got %d" % (len(lines) + 1, count, len(lines) - 1)
    if row != goal:
        return "line %d: %s is not the goal %s" % (len(lines), row, goal)
    return None


def main():
    if len(sys.argv) < 4:
        sys.stderr.write("usage: swap_output.py INPUT ANSWER FEEDBACK_DIR < OUTPUT\n")
        sys.exit(1)
    with open(sys.argv[1], "rb") as f:
        start = f.read().decode("ascii").strip()
    with open(sys.argv[2], "rb") as f:
        answer = lines_of(f.read())
    minimum = None if answer[0] == b"Impossible" else int(answer[0])
    why = judge(start, minimum, sys.stdin.buffer.read())
    verdict(sys.argv[3], why is None, why or "accepted")


main()
