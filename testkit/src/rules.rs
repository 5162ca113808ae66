//! The problems' rules as problems.md states them, written again for the tests (not the
//! reference crate's code): a test that replays a witness the grader printed checks it
//! against a reading of the rules of its own.

/// The cells of a board's text, row by row (`b`/`w` for flip; `B`/`W`/`O` for
/// fourinrow).
pub fn cells(board: &str) -> Vec<Vec<u8>> {
    board.lines().map(|l| l.as_bytes().to_vec()).collect()
}

/// The squares a flip press at `(r, c)` (0-based) turns over: the piece itself and the
/// (up to four) next to it.
pub fn flip_press_area(r: usize, c: usize) -> Vec<(usize, usize)> {
    let mut area = vec![(r, c)];
    if r > 0 {
        area.push((r - 1, c));
    }
    if r < 3 {
        area.push((r + 1, c));
    }
    if c > 0 {
        area.push((r, c - 1));
    }
    if c < 3 {
        area.push((r, c + 1));
    }
    area
}

/// Presses the flip board at `(r, c)` (0-based): every square of its area turns over.
pub fn flip_press(board: &mut [Vec<u8>], r: usize, c: usize) {
    for (y, x) in flip_press_area(r, c) {
        board[y][x] = if board[y][x] == b'b' { b'w' } else { b'b' };
    }
}

/// Whether every square of a board shows one colour (a solved flip board).
pub fn one_colour(board: &[Vec<u8>]) -> bool {
    board.iter().flatten().all(|&c| c == board[0][0])
}

/// Whether a fourinrow board holds four of one colour in a row, a column or a main
/// diagonal (a won board).
pub fn fourinrow_has_line(board: &[Vec<u8>]) -> bool {
    let mut lines: Vec<[(usize, usize); 4]> = Vec::new();
    for i in 0..4 {
        lines.push([(i, 0), (i, 1), (i, 2), (i, 3)]);
        lines.push([(0, i), (1, i), (2, i), (3, i)]);
    }
    lines.push([(0, 0), (1, 1), (2, 2), (3, 3)]);
    lines.push([(0, 3), (1, 2), (2, 1), (3, 0)]);
    lines.iter().any(|line| {
        let first = board[line[0].0][line[0].1];
        first != b'O' && line.iter().all(|&(r, c)| board[r][c] == first)
    })
}
