//! End-to-end tests of the precompiled `bits/stdc++.h` (cli.md, "Compile cache"): built
//! once in a compile cache, read by the compiles of the sources that include it (in the
//! box, at `/headers`; in `none`, at its place in the cache), and the program the same,
//! byte for byte, as a plain `g++` of the source makes, also where GCC must refuse the
//! header (a macro before the `#include` that changes it). A compile error's message is
//! the plain compile's.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use testkit::files::write;
use testkit::grader::grader;
use testkit::paths::two_cases;
use testkit::tools::has_tools;

/// A flip solution in the contest style: everything from `bits/stdc++.h`.
const FLIP: &str = r#"#include <bits/stdc++.h>
using namespace std;
int main() {
    string row, all;
    while (cin >> row) all += row;
    int start = 0;
    for (int i = 0; i < 16; i++) if (all[i] == 'b') start |= 1 << i;
    vector<int> d(1 << 16, -1);
    queue<int> q;
    d[start] = 0;
    q.push(start);
    while (!q.empty()) {
        int u = q.front(); q.pop();
        for (int i = 0; i < 16; i++) {
            int v = u ^ (1 << i), r = i / 4, c = i % 4;
            if (r > 0) v ^= 1 << (i - 4);
            if (r < 3) v ^= 1 << (i + 4);
            if (c > 0) v ^= 1 << (i - 1);
            if (c < 3) v ^= 1 << (i + 1);
            if (d[v] < 0) { d[v] = d[u] + 1; q.push(v); }
        }
    }
    int best = INT_MAX;
    for (int goal : {0, 0xffff}) if (d[goal] >= 0) best = min(best, d[goal]);
    if (best == INT_MAX) puts("Impossible"); else printf("%d\n", best);
}
"#;

/// `grader test flip SOURCE` on two cases with `cache`, in `sandbox`, with `extra` flags.
fn test(source: &Path, cache: &Path, sandbox: &str, extra: &[&str]) -> Output {
    grader()
        .env("GRADER_CACHE_DIR", cache)
        .args(["test", "flip"])
        .arg(source)
        .arg("--cases")
        .arg(two_cases())
        .args([
            "--sandbox",
            sandbox,
            "--time-limit",
            "5",
            "--wall-limit",
            "60",
        ])
        .args(extra)
        .timeout(std::time::Duration::from_mins(5))
        .output()
        .unwrap()
}

/// The precompiled headers a cache holds.
fn headers(cache: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = fs::read_dir(cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("precompiled-")
        })
        .map(|p| p.join("bits/stdc++.h.gch"))
        .collect();
    found.sort();
    found
}

/// The programs a cache holds.
fn programs(cache: &Path) -> Vec<Vec<u8>> {
    fs::read_dir(cache)
        .unwrap()
        .filter_map(|e| fs::read(e.unwrap().path().join("program")).ok())
        .collect()
}

/// What a plain `g++` of the built-in `cpp` command makes of `source` (same file name,
/// another folder).
fn bare(source: &Path, scratch: &Path) -> Vec<u8> {
    let dir = tempfile::tempdir_in(scratch).unwrap();
    let copy = dir.path().join(source.file_name().unwrap());
    fs::copy(source, &copy).unwrap();
    let status = std::process::Command::new("g++")
        .args(["-O2", "-std=gnu++23", "-pipe", "-o", "program"])
        .arg(copy.file_name().unwrap())
        .current_dir(dir.path())
        .status()
        .unwrap();
    assert!(status.success());
    fs::read(dir.path().join("program")).unwrap()
}

#[test]
fn the_header_is_built_once_and_every_program_is_a_plain_compiles() {
    if !has_tools("the precompiled header", &[("g++", "g++")]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    let sources = [
        write(dir.path(), "plain.cpp", FLIP),
        // A macro before the include changes the header: GCC must refuse the
        // precompiled one and read the header itself.
        write(
            dir.path(),
            "debug.cpp",
            format!("#define _GLIBCXX_DEBUG 1\n{FLIP}"),
        ),
        // Another header first: the precompiled one cannot be used after it.
        write(
            dir.path(),
            "after.cpp",
            format!("#include <cstdio>\n{FLIP}"),
        ),
    ];
    for source in &sources {
        let out = test(source, &cache, "strict", &[]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && stdout.contains("AC 2/2"),
            "{}: {stdout}{}",
            source.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let built = headers(&cache);
    assert_eq!(built.len(), 1, "one header for the toolchain: {built:?}");
    assert!(fs::metadata(&built[0]).unwrap().len() > 1 << 20);
    let made = programs(&cache);
    assert_eq!(made.len(), sources.len());
    for source in &sources {
        assert!(
            made.contains(&bare(source, dir.path())),
            "{}: not the program a plain g++ makes",
            source.display()
        );
    }
    // `basic` may compile as a uid that cannot enter the cache: no header there, and
    // the same program all the same.
    let basic = dir.path().join("basic-cache");
    let source = write(dir.path(), "basic/plain.cpp", FLIP);
    assert!(test(&source, &basic, "basic", &[]).status.success());
    assert!(headers(&basic).is_empty());
    assert_eq!(programs(&basic), [bare(&source, dir.path())]);
}

/// A language like the built-in `cpp`, through a script that builds the header as `cpp`
/// does, but compiles a source with `-H -fsyntax-only`: it lists the headers it reads and
/// writes no program, so its `CE` message is what the compiler read.
const LISTING: &str = r#"
[cpp-listing]
extensions = []
compile = ["sh", "-c", "case \"$*\" in *c++-header*) exec g++ \"$@\";; *) exec g++ -H -fsyntax-only \"$@\";; esac", "g++", "-O2", "-std=gnu++23", "-pipe", "-o", "{out}", "{src}"]
run = ["{out}"]
precompiled = { header = "bits/stdc++.h", kind = "c++-header" }
"#;

#[test]
fn the_compile_reads_the_precompiled_header_in_the_box_and_without_one() {
    if !has_tools("the precompiled header", &[("g++", "g++")]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let config = write(dir.path(), "listing.toml", LISTING);
    let source = write(dir.path(), "sol.cpp", FLIP);
    let listing = |sandbox: &str, cache: &Path| {
        let out = test(
            &source,
            cache,
            sandbox,
            &[
                "--config",
                config.to_str().unwrap(),
                "--lang",
                "cpp-listing",
                "--report",
                "json",
            ],
        );
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        report["compile_error"].as_str().unwrap().to_owned()
    };
    // `!` before a `.gch`: GCC read it (`x`: found and refused).
    let boxed = listing("strict", &dir.path().join("strict-cache"));
    assert!(
        boxed.contains("! /headers/bits/stdc++.h.gch"),
        "the box's compile did not read the header: {boxed}"
    );
    let cache = dir.path().join("none-cache");
    let unboxed = listing("none", &cache);
    let header = headers(&cache).remove(0);
    assert!(
        unboxed.contains(&format!("! {}", header.display())),
        "{unboxed}"
    );
}

#[test]
fn a_compile_error_says_what_a_plain_compile_says() {
    if !has_tools("the precompiled header", &[("g++", "g++")]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // An error inside the library's templates: GCC's include chain names the file a
    // precompiled header was built from, where a plain compile names the source.
    let source = write(
        dir.path(),
        "sorted.cpp",
        "#include <bits/stdc++.h>\nusing namespace std;\nint main() {\n    list<int> l{3, 1, 2};\n    sort(l.begin(), l.end());\n}\n",
    );
    let out = test(
        &source,
        &dir.path().join("cache"),
        "strict",
        &["--report", "json"],
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let message = report["compile_error"].as_str().unwrap();
    let plain = std::process::Command::new("g++")
        .args([
            "-O2",
            "-std=gnu++23",
            "-pipe",
            "-o",
            "/dev/null",
            "sorted.cpp",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let plain = String::from_utf8_lossy(&plain.stderr);
    let first: Vec<&str> = plain.lines().take(5).collect();
    assert!(
        message.starts_with(&first.join("\n")),
        "not the plain compile's message:\n{message}\n--- plain:\n{plain}"
    );
    assert!(!message.contains("precompiled.h"), "{message}");
}
