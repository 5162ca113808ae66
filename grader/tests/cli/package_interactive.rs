//! Interactive problems (`validation: custom interactive`, `type: interactive`): a
//! guessing game written here, its interactor in Python, and submissions that guess
//! right, guess wrong, never read, flood, close their ends early, sleep waiting, spin and
//! crash, through `package verify`, `test`, `batch` and `fuzz`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use testkit::class::Class;
use testkit::files::write;
use testkit::grader::grader;
use testkit::output::{json, said};

/// Wide: the machine is busy, and a sleeper is run twice to its wall limit.
const TIMEOUT: Duration = Duration::from_mins(4);

/// The interactor: the secret number is the input; ten guesses, each answered `lower`,
/// `higher` or `correct`; its reason in `judgemessage.txt`. It reads at most 100 bytes a
/// guess, so that a flood is a wrong guess, not its own memory.
const INTERACTOR: &str = r#"import sys
secret = int(open(sys.argv[1]).read())
feedback = sys.argv[3]
def refuse(why):
    with open(feedback + "judgemessage.txt", "w") as f:
        f.write(why + "\n")
    sys.exit(43)
for turn in range(1, 11):
    line = sys.stdin.readline(100)
    if not line:
        refuse(f"guess {turn}: the submission's output ended")
    try:
        guess = int(line)
    except ValueError:
        refuse(f"guess {turn}: not a number")
    if guess == secret:
        print("correct", flush=True)
        sys.exit(42)
    print("lower" if guess > secret else "higher", flush=True)
refuse("no right guess in 10")
"#;

const SEARCH: &str = r#"lo, hi = 1, 1000
while True:
    mid = (lo + hi) // 2
    print(mid, flush=True)
    said = input()
    if said == "correct":
        break
    if said == "lower":
        hi = mid - 1
    else:
        lo = mid + 1
"#;

const ALWAYS_ONE: &str =
    "while True:\n    print(1, flush=True)\n    if input() == \"correct\":\n        break\n";

/// Each submission of the package, by its folder, and what it does.
const SUBMISSIONS: [(&str, &str); 8] = [
    ("accepted/search.py", SEARCH),
    ("wrong_answer/always_one.py", ALWAYS_ONE),
    // Guesses without ever reading an answer: the interactor's ten answers wait in
    // the pipe.
    (
        "wrong_answer/never_reads.py",
        "for i in range(1, 1001):\n    print(i, flush=True)\n",
    ),
    // Writes without end, never reading.
    (
        "wrong_answer/floods.py",
        "import sys\nwhile True:\n    sys.stdout.write('9' * 65536)\n",
    ),
    // Closes both its ends at once and leaves.
    (
        "wrong_answer/closes.py",
        "import os\nos.close(1)\nos.close(0)\n",
    ),
    // Waits for the interactor, which waits for it.
    ("time_limit_exceeded/sleeps.py", "input()\n"),
    (
        "time_limit_exceeded/spins.py",
        "print(500, flush=True)\nwhile True:\n    pass\n",
    ),
    // Guesses, reads the answer, and crashes.
    (
        "run_time_error/crashes.py",
        "print(500, flush=True)\ninput()\nraise SystemExit(3)\n",
    ),
];

/// The guessing game as a legacy package in `dir` (`problem.yaml` as given), with a
/// sample (and its `.interaction`) and two secret cases; a fixed time limit, so that no
/// run sets one.
fn guess(dir: &Path, problem_yaml: &str, validator_dir: &str) -> PathBuf {
    let package = dir.join("guess");
    write(&package, "problem.yaml", problem_yaml);
    write(&package, ".timelimit", "1\n");
    for (name, secret) in [("sample/1", 500), ("secret/1", 318), ("secret/2", 999)] {
        write(&package, format!("data/{name}.in"), format!("{secret}\n"));
        write(&package, format!("data/{name}.ans"), format!("{secret}\n"));
    }
    write(&package, "data/sample/1.interaction", ">500\n<correct\n");
    write(
        &package,
        "input_validators/check.py",
        "import sys\nn = int(sys.stdin.read())\nsys.exit(42 if 1 <= n <= 1000 else 43)\n",
    );
    write(
        &package,
        format!("{validator_dir}/interactor.py"),
        INTERACTOR,
    );
    for (path, text) in SUBMISSIONS {
        write(&package, format!("submissions/{path}"), text);
    }
    package
}

fn legacy(dir: &Path) -> PathBuf {
    guess(
        dir,
        "name: Guess\nvalidation: custom interactive\n",
        "output_validators/interactor",
    )
}

/// `grader package verify` on `package`: its exit status, standard output and error.
fn verify(package: &Path) -> (i32, String, String) {
    testkit::packages::verify(package, &[])
}

/// The verdict `verify`'s table gives `submission`.
fn got<'a>(table: &'a str, submission: &str) -> &'a str {
    let row = table
        .lines()
        .find(|line| line.starts_with(submission))
        .unwrap_or_else(|| panic!("no row for {submission}:\n{table}"));
    row.split_whitespace().nth(2).unwrap()
}

#[test]
fn verify_gives_each_submission_of_an_interactive_problem_the_verdict_of_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    // Both versions of the format: the legacy word, and 2023-07's type with its folder.
    let packages = [
        legacy(dir.path()),
        guess(
            &dir.path().join("modern"),
            "problem_format_version: 2023-07\nname: Guess\ntype: interactive\n",
            "output_validator",
        ),
    ];
    for package in &packages {
        let (code, out, err) = verify(package);
        assert_eq!(code, 0, "{out}{err}");
        assert!(
            out.contains("every submission got the verdict of its folder"),
            "{out}"
        );
        for (path, _) in SUBMISSIONS {
            let folder = path.split('/').next().unwrap();
            let want = match folder {
                "accepted" => "AC",
                "wrong_answer" => "WA",
                "time_limit_exceeded" => "TLE",
                _ => "RTE",
            };
            assert_eq!(got(&out, path), want, "{path}:\n{out}");
        }
        // The interactor's reason is the first failure's.
        let always = out
            .lines()
            .find(|l| l.starts_with("wrong_answer/always_one.py"))
            .unwrap();
        assert!(always.contains("no right guess in 10"), "{always}");
    }
    // A wrong submission among the accepted ones disagrees.
    let package = &packages[0];
    std::fs::rename(
        package.join("submissions/wrong_answer/always_one.py"),
        package.join("submissions/accepted/always_one.py"),
    )
    .unwrap();
    let (code, out, _) = verify(package);
    assert_eq!(code, 1, "{out}");
    assert_eq!(got(&out, "accepted/always_one.py"), "WA");
}

#[test]
fn an_interactor_that_fails_is_the_package_s_fault_never_a_submission_s_mark() {
    for (what, interactor) in [
        ("exits 0", "import sys\nsys.stdin.readline()\nsys.exit(0)\n"),
        ("crashes", "import os\nos.abort()\n"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let package = legacy(dir.path());
        write(
            &package,
            "output_validators/interactor/interactor.py",
            interactor,
        );
        let output = grader()
            .arg("test")
            .arg(&package)
            .arg(package.join("submissions/accepted/search.py"))
            .timeout(TIMEOUT)
            .output()
            .unwrap();
        let (code, out, err) = said(&output);
        assert_eq!((code, out.as_str()), (2, ""), "{what}: {err}");
        assert!(
            err.contains("the interactor") && err.contains("the package's fault"),
            "{what}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{what}: {err}");
    }
}

#[test]
fn test_and_batch_show_the_interaction_as_a_interaction_file_does() {
    let dir = tempfile::tempdir().unwrap();
    let package = legacy(dir.path());
    let run = |submission: &str, args: &[&str]| {
        let output = grader()
            .arg("test")
            .arg(&package)
            .arg(package.join("submissions").join(submission))
            .args(args)
            .timeout(TIMEOUT)
            .output()
            .unwrap();
        said(&output)
    };
    let (code, out, err) = run("accepted/search.py", &["--report", "json"]);
    assert_eq!(code, 0, "{out}{err}");
    let report = json(&out);
    // 318 by binary search from 500: what passed each way, in order.
    assert_eq!(
        report["cases"][1]["interaction"],
        ">500\n<lower\n>250\n<higher\n>375\n<lower\n>312\n<higher\n>343\n<lower\n>327\n<lower\n>319\n<lower\n>315\n<higher\n>317\n<higher\n>318\n<correct\n"
    );
    assert!(report["cases"][1].get("output").is_none(), "{out}");
    let (code, out, _) = run("run_time_error/crashes.py", &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(
            "RE secret/1: exit status 3\n  input:\n    318\n  interaction (> the submission wrote, < it read):\n    >500\n    <lower\n"
        ),
        "{out}"
    );
    let (code, out, _) = run("wrong_answer/always_one.py", &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("  why: no right guess in 10"), "{out}");
    // A sample's `.interaction` is shown beside what passed.
    assert!(
        out.contains(
            "WA sample/1: no right guess in 10\n  input:\n    500\n  the sample's interaction (.interaction):\n    >500\n    <correct\n  interaction (> the submission wrote, < it read):\n    >1\n    <higher\n"
        ),
        "{out}"
    );
    // The sleeper and the spinner get their own verdicts within their limits.
    let (code, out, _) = run("time_limit_exceeded/sleeps.py", &["--report", "json"]);
    assert_eq!(code, 1, "{out}");
    let report = json(&out);
    assert_eq!(report["cases"][0]["verdict"], "TLE", "{out}");
    assert!(
        report["cases"][0]["message"]
            .as_str()
            .unwrap()
            .starts_with("wall time over"),
        "{out}"
    );

    // A class: the gradebook keeps each case's interaction, the feedback page shows it.
    let class = Class::at(dir.path().join("class"));
    class.write("alice.py", SEARCH).write("bob.py", ALWAYS_ONE);
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let output = grader()
        .arg("batch")
        .arg(&package)
        .arg(class.path())
        .arg("--out")
        .arg(&out)
        .arg("--feedback")
        .arg(out.join("pages"))
        .timeout(TIMEOUT)
        .output()
        .unwrap();
    let (code, stdout, err) = said(&output);
    assert_eq!(code, 1, "{stdout}{err}");
    let book = json(std::fs::read(out.join("gradebook.json")).unwrap());
    let bob = book["students"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["student"] == "bob")
        .unwrap();
    // Ten guesses and their answers; an eleventh guess may pass too, written as the
    // interactor left.
    let interaction = bob["cases"][0]["interaction"].as_str().unwrap();
    assert!(
        interaction.starts_with(&">1\n<higher\n".repeat(10)),
        "{interaction}"
    );
    assert!(interaction.len() <= ">1\n<higher\n".len() * 10 + ">1\n".len());
    let page = std::fs::read_to_string(out.join("pages/bob.html")).unwrap();
    assert!(
        page.contains("the interaction (&gt; you wrote, &lt; you read)<pre>&gt;1\n&lt;higher\n"),
        "{page}"
    );
    assert!(
        page.contains("the sample's interaction<pre>&gt;500\n&lt;correct\n</pre>"),
        "{page}"
    );
}

#[test]
fn fuzz_plays_a_generated_game_against_the_interactor_and_keeps_the_exchange() {
    let dir = tempfile::tempdir().unwrap();
    let package = legacy(dir.path());
    write(
        &package,
        "generators/fuzz.py",
        "import sys, random\nrandom.seed(int(sys.argv[1]))\nprint(random.randint(2, 1000))\n",
    );
    let fuzz = |submission: &str| {
        let output = grader()
            .arg("fuzz")
            .arg(&package)
            .arg(package.join("submissions").join(submission))
            .args(["--seed", "3", "--runs", "20", "--shrink-steps", "5"])
            .args(["--report", "json"])
            .timeout(TIMEOUT)
            .output()
            .unwrap();
        said(&output)
    };
    let (code, out, err) = fuzz("accepted/search.py");
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = fuzz("wrong_answer/always_one.py");
    assert_eq!(code, 1, "{out}{err}");
    let report = json(&out);
    assert_eq!(report["finding"]["verdict"], "WA", "{out}");
    assert!(
        report["finding"]["shrunk"]["got"]
            .as_str()
            .unwrap()
            .starts_with(">1\n<higher\n"),
        "{out}"
    );
}

/// An interactor that answers every line it reads, as DOMjudge's `boolfind` jury does,
/// against a submission that floods it with queries and never reads an answer: the two
/// block on full pipes. The submission is killed at its wall limit (`TLE`); what the
/// interactor still writes is then read and dropped, so it reads the end of the
/// submission's output and ends, well within its own wall limit. It was blocked on its
/// full pipe until that limit (two minutes), and the package was blamed (exit 2).
#[test]
fn an_interactor_answering_a_flood_that_is_never_read_is_not_blamed() {
    let dir = tempfile::tempdir().unwrap();
    let package = legacy(dir.path());
    write(
        &package,
        "output_validators/interactor/interactor.py",
        "import sys\nwhile True:\n    if not sys.stdin.readline():\n        \
         open(sys.argv[3] + 'judgemessage.txt', 'w').write('its output ended\\n')\n        \
         sys.exit(43)\n    print('lower', flush=True)\n",
    );
    std::fs::remove_dir_all(package.join("submissions")).unwrap();
    let floods = "time_limit_exceeded/asks_never_reads.py";
    write(
        &package,
        format!("submissions/{floods}"),
        "while True:\n    print(1, flush=True)\n",
    );
    for data in ["secret/1", "secret/2"] {
        for ext in ["in", "ans"] {
            std::fs::remove_file(package.join(format!("data/{data}.{ext}"))).unwrap();
        }
    }
    let (code, out, err) = verify(&package);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(got(&out, floods), "TLE", "{out}");
    // Relayed, where the exchange is shown: the same.
    let output = grader()
        .arg("test")
        .arg(&package)
        .arg(package.join(format!("submissions/{floods}")))
        .timeout(TIMEOUT)
        .output()
        .unwrap();
    let (code, out, err) = said(&output);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("TLE 0/1 passed"), "{out}");
}
