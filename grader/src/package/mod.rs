//! Problem packages in the Kattis/ICPC format: the built-in problems written as packages
//! (`export`).

pub(crate) mod export;
