# Input validator of the exported `flip` package (the grader's docs/problems.md): exactly
# 4 lines of exactly 4 characters, each `b` or `w`, every line ended by `\n` and nothing
# else in the file. Exit 42 when the input is valid, 43 (with the reason on stderr) when not.
import sys

data = sys.stdin.buffer.read()
lines = data.split(b"\n")


def reject(why):
    sys.stderr.write(why + "\n")
    sys.exit(43)


# A file ended by `\n` splits into its lines and one empty piece after the last.
if not data.endswith(b"\n"):
    reject("the input does not end with a line end")
if len(lines) != 5:
    reject("expected 4 lines, got %d" % (len(lines) - 1))
for number, line in enumerate(lines[:4], 1):
    if len(line) != 4:
        reject("line %d: expected 4 characters, got %d" % (number, len(line)))
    for column, byte in enumerate(line, 1):
        if byte not in b"bw":
            reject("line %d, column %d: expected b or w" % (number, column))
sys.exit(42)
