# Input validator of the exported `swap` package (the grader's docs/problems.md): one line
# of 2 to 21 characters, each `W`, `B` or `O`, with exactly one `O`, at most 10 `W` and at
# most 10 `B`, ended by `\n`, and nothing else in the file. Exit 42 when the input is valid,
# 43 (with the reason on stderr) when not.
import sys

data = sys.stdin.buffer.read()


def reject(why):
    sys.stderr.write(why + "\n")
    sys.exit(43)


if not data.endswith(b"\n"):
    reject("the input does not end with a line end")
row = data[:-1]
if b"\n" in row:
    reject("expected one line")
if not 2 <= len(row) <= 21:
    reject("expected 2 to 21 characters, got %d" % len(row))
for column, byte in enumerate(row, 1):
    if byte not in b"WBO":
        reject("column %d: expected W, B or O" % column)
if row.count(b"O") != 1:
    reject("expected exactly one O, got %d" % row.count(b"O"))
for piece in (b"W", b"B"):
    if row.count(piece) > 10:
        reject("at most 10 %s, got %d" % (piece.decode(), row.count(piece)))
sys.exit(42)
