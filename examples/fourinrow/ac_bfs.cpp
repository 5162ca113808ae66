// fourinrow (Codevs 1004): breadth-first search over (board, colour to move), starting from both
// colours since either may move first; the answer is the depth of the first goal board.
#include <cstdio>
#include <queue>
#include <string>
#include <unordered_set>
using namespace std;

static bool won(const string &b) {
    static const int lines[10][4] = {
        {0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 10, 11}, {12, 13, 14, 15},
        {0, 4, 8, 12}, {1, 5, 9, 13}, {2, 6, 10, 14}, {3, 7, 11, 15},
        {0, 5, 10, 15}, {3, 6, 9, 12}};
    for (auto &l : lines)
        if (b[l[0]] != 'O' && b[l[0]] == b[l[1]] && b[l[1]] == b[l[2]] && b[l[2]] == b[l[3]])
            return true;
    return false;
}

int main() {
    string board;
    char line[8];
    for (int r = 0; r < 4; r++) {
        if (scanf("%7s", line) != 1) return 1;
        board += string(line, 4);
    }
    // a state is the 16-character board followed by the colour to move
    queue<pair<string, int>> q;
    unordered_set<string> seen;
    for (char mover : {'B', 'W'}) {
        q.push({board + mover, 0});
        seen.insert(board + mover);
    }
    while (!q.empty()) {
        auto [s, d] = q.front();
        q.pop();
        if (won(s)) {
            printf("%d\n", d);
            return 0;
        }
        char mover = s[16], other = mover == 'B' ? 'W' : 'B';
        for (int e = 0; e < 16; e++) {
            if (s[e] != 'O') continue;
            int r = e / 4, c = e % 4;
            int from[4] = {r > 0 ? e - 4 : -1, r < 3 ? e + 4 : -1, c > 0 ? e - 1 : -1, c < 3 ? e + 1 : -1};
            for (int f : from) {
                if (f < 0 || s[f] != mover) continue;
                string t = s;
                t[e] = mover;
                t[f] = 'O';
                t[16] = other;
                if (seen.insert(t).second) q.push({t, d + 1});
            }
        }
    }
    printf("Impossible\n");
    return 0;
}
