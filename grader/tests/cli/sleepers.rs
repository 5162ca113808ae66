//! End-to-end tests of `grader batch`'s stop of a sleeping student: after three cases in
//! a row that its program slept through to the wall limit, its other cases are not run
//! and are `--`, neither passed nor failed, in every form (the summary, the JSON, the CSV's
//! `not_run`, JUnit's `skipped`, the page and the feedback page); a resumed batch decides
//! exactly as the first, counting the journal's runs; `--stop-after-wall-tles 0` runs
//! every case; the row that stops it sleeps side by side on the doze lane, and no case of
//! the sleeper starts after it.

use std::fs;
use std::path::PathBuf;
use std::time::Duration;

use assert_cmd::Command;
use serde_json::Value;

use testkit::class::Class;
use testkit::paths::fixture;
use testkit::tools::{chromium, rendered};

/// A class of a sleeper and an honest student, six generated cases, and a scene of their
/// own (TMPDIR and compile cache).
struct Scene {
    scene: testkit::scene::Scene,
}

/// What one batch gave.
struct Batch {
    /// stdout (the gradebook as JSON, or the human summary).
    stdout: String,
    /// The progress.
    stderr: String,
}

impl Scene {
    fn new() -> Scene {
        let scene = Scene {
            scene: testkit::scene::Scene::new(Duration::from_mins(5)),
        };
        Class::at(scene.path("class"))
            .copy("sleeper.py", &fixture("flip/tle_sleep.py"))
            .copy("honest.py", &fixture("flip/ac_rows.py"));
        scene
            .command()
            .args([
                "gen", "flip", "--seed", "27", "--count", "6", "--out", "cases",
            ])
            .assert()
            .success();
        scene
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.scene.path(rel)
    }

    fn command(&self) -> Command {
        self.scene.grader()
    }

    /// `grader batch` of the class into `out` on one worker, the sleeper's runs a second
    /// of wall time each (the honest student's take milliseconds of CPU: a wide margin).
    fn batch(&self, extra: &[&str]) -> Batch {
        let output = self
            .command()
            .args(["batch", "flip", "class", "--cases", "cases", "--out", "out"])
            .args(["--jobs", "1", "--time-limit", "0.5", "--wall-limit", "1"])
            .args(extra)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert_eq!(output.status.code(), Some(1), "{stderr}");
        Batch {
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr,
        }
    }

    /// The gradebook of a batch made again until the sleeper is graded: a machine that
    /// holds a run back twice leaves it ungraded, and the journal resumes.
    fn settled(&self, extra: &[&str]) -> Value {
        for _ in 0..5 {
            let book: Value = serde_json::from_str(&self.batch(extra).stdout).unwrap();
            if sleeper(&book)["verdict"] != "--" {
                return book;
            }
        }
        panic!("the sleeper was never graded");
    }

    fn journal(&self) -> Vec<String> {
        let text = fs::read_to_string(self.path("out/journal.jsonl")).unwrap();
        text.lines().map(str::to_owned).collect()
    }
}

fn sleeper(book: &Value) -> &Value {
    &book["students"][1]
}

fn case_names(student: &Value) -> Vec<&str> {
    let cases = student["cases"].as_array().unwrap();
    cases.iter().map(|c| c["name"].as_str().unwrap()).collect()
}

const JSON: [&str; 2] = ["--report", "json"];

/// The CSV counts the cases not run apart (`not_run`); JUnit has them as skipped, never
/// as failures or errors. The sleeper ran `ran` of the 6 cases.
fn not_run_apart(scene: &Scene, ran: usize) {
    let csv = fs::read_to_string(scene.path("out/gradebook.csv")).unwrap();
    assert!(
        csv.starts_with(
            "student,submission,language,score,verdict,passed,total,compiled,suggested_lang,\
             not_run,. (6)\n"
        ),
        "{csv}"
    );
    assert!(
        csv.contains(&format!(
            "\nsleeper,sleeper.py,python,0.0,TLE,0,6,yes,,{},0\n",
            6 - ran
        )),
        "{csv}"
    );
    assert!(
        csv.contains("\nhonest,honest.py,python,100.0,AC,6,6,yes,,0,6\n"),
        "{csv}"
    );
    let xml = fs::read_to_string(scene.path("out/gradebook.xml")).unwrap();
    assert!(
        xml.contains(&format!(
            "<testsuite name=\"sleeper\" tests=\"6\" skipped=\"{}\" errors=\"{}\" failures=\"0\"",
            6 - ran,
            ran
        )),
        "{xml}"
    );
    assert_eq!(
        xml.matches("<skipped message=\"not run: stopped after 3 wall-limit TLEs in a row")
            .count(),
        6 - ran,
        "{xml}"
    );
}

#[test]
fn a_student_asleep_on_three_cases_in_a_row_is_stopped_and_a_resume_decides_alike() {
    let scene = Scene::new();
    let book = scene.settled(&JSON);
    let honest = &book["students"][0];
    assert_eq!(honest["verdict"], "AC", "{book:#}");
    assert_eq!(honest["stopped"], Value::Null);
    let slept = sleeper(&book);
    assert_eq!(slept["student"], "sleeper");
    assert_eq!(slept["verdict"], "TLE", "{slept:#}");
    assert_eq!(slept["passed"], 0);
    let ran = case_names(slept);
    // Three in a row stop it (one more when a held-back run left a gap).
    assert!((3..6).contains(&ran.len()), "{slept:#}");
    for case in slept["cases"].as_array().unwrap() {
        assert!(
            case["message"].as_str().unwrap().contains("slept"),
            "{case}"
        );
    }
    let stopped = slept["stopped"].as_str().unwrap();
    let cases = if ran.len() == 5 { "case" } else { "cases" };
    let not_run = format!(
        "{} {cases} not run (--, neither passed nor failed)",
        6 - ran.len()
    );
    assert!(stopped.contains("3 wall-limit TLEs in a row"), "{stopped}");
    assert!(stopped.ends_with(&not_run), "{stopped}");
    assert!(!stopped.contains("failed,") && !stopped.contains("as failed"));
    not_run_apart(&scene, ran.len());
    // Resumed: nothing run again, the same decision, said in the summary.
    let lines = scene.journal();
    let again = scene.batch(&[]);
    assert_eq!(scene.journal(), lines, "no run made again");
    assert!(
        again.stderr.contains(
            "sleeper: stopped: it slept through cases in a row (graded earlier, journal)"
        ),
        "{}",
        again.stderr
    );
    assert!(
        again.stdout.contains(&format!(
            "1 student stopped early (their program slept through cases in a row): {} cases \
             not run (--, neither passed nor failed: a score counts the cases passed); \
             --stop-after-wall-tles 0 runs them",
            6 - ran.len()
        )),
        "{}",
        again.stdout
    );
    // A journal cut between its second and third sleep: the third is run, and the
    // student stopped there as before.
    let kept: Vec<&String> = lines
        .iter()
        .filter(|l| !l.contains("\"sleeper\"") || !l.contains(&format!("\"{}\"", ran[2])))
        .collect();
    let text: Vec<String> = kept.iter().map(|l| format!("{l}\n")).collect();
    fs::write(scene.path("out/journal.jsonl"), text.concat()).unwrap();
    let resumed = scene.settled(&JSON);
    let names = case_names(sleeper(&resumed));
    if names.contains(&ran[2]) {
        assert_eq!(names, ran, "{resumed:#}");
        assert_eq!(sleeper(&resumed)["stopped"], slept["stopped"]);
    } else {
        // A machine that held the third run back twice left it ungraded (`--`, not
        // journaled), and the three after it stopped the student: the rule, on a gap.
        let stopped = sleeper(&resumed)["stopped"].as_str().unwrap();
        assert!(
            stopped.contains("3 wall-limit TLEs in a row"),
            "{resumed:#}"
        );
        assert!(names.starts_with(&ran[..2]), "{resumed:#}");
    }
    // Turned off, the cases not run are run.
    let all = scene.settled(&["--report", "json", "--stop-after-wall-tles", "0"]);
    assert_eq!(case_names(sleeper(&all)).len(), 6, "{all:#}");
    assert_eq!(sleeper(&all)["stopped"], Value::Null);
}

#[test]
fn the_pages_say_a_student_was_stopped_early_and_why() {
    let scene = Scene::new();
    let book = scene.settled(&["--report", "json", "--feedback", "fb"]);
    let not_run = 6 - case_names(sleeper(&book)).len();
    let gradebook = scene.path("out/gradebook.html");
    let feedback = scene.path("fb/sleeper.html");
    let (gradebook, feedback) = if let Some(browser) = chromium() {
        (
            rendered(browser, &scene.path("chromium"), &gradebook),
            rendered(browser, &scene.path("chromium"), &feedback),
        )
    } else {
        eprintln!("the pages are not rendered: no chromium on this machine");
        (
            fs::read_to_string(gradebook).unwrap(),
            fs::read_to_string(feedback).unwrap(),
        )
    };
    assert!(
        gradebook.contains(&format!(
            "1 student was stopped early, their program asleep at the wall limit on cases in \
             a row: {not_run} cases not run (--, neither passed nor failed: a score counts the \
             cases passed; <code>--stop-after-wall-tles 0</code> runs them)."
        )),
        "{gradebook}"
    );
    assert!(
        gradebook.contains(&format!("; stopped early, {not_run} not run (--)</td>")),
        "the first-failure cell: {gradebook}"
    );
    assert!(
        gradebook.contains(&format!("<td class=\"num TLE\">0/6, {not_run} --</td>")),
        "the matrix's cell: {gradebook}"
    );
    assert!(!gradebook.contains("counted as failed"), "{gradebook}");
    assert!(
        feedback.contains("Your program was stopped after 3 wall-limit TLEs in a row"),
        "{feedback}"
    );
    assert!(
        feedback.contains(&format!(
            "{not_run} cases not run (--, neither passed nor failed)."
        )),
        "{feedback}"
    );
    assert!(
        feedback.contains(&format!("0/6, {not_run} not run (--)</td>")),
        "the groups' table: {feedback}"
    );
}

#[test]
fn a_sleepers_row_sleeps_side_by_side_on_the_doze_lane_and_nothing_after_it() {
    let scene = Scene::new();
    // This sleeper's runs are counted by its file name while the batch runs: a name no
    // other test's program has.
    let name = format!("dozes{}", std::process::id());
    fs::remove_file(scene.path("class/sleeper.py")).unwrap();
    Class::at(scene.path("class")).copy(format!("{name}.py"), &fixture("flip/tle_sleep.py"));
    let program = format!("/{name}.py");
    for _ in 0..5 {
        let _ = fs::remove_dir_all(scene.path("out"));
        let stdout = fs::File::create(scene.path("book.json")).unwrap();
        let mut batch = scene
            .scene
            .process()
            .args(["batch", "flip", "class", "--cases", "cases", "--out", "out"])
            .args(["--jobs", "1", "--time-limit", "0.5", "--wall-limit", "1"])
            .args(JSON)
            .stdout(stdout)
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // The most of its runs alive at once, looked at every few ms (each lives a
        // second of wall time).
        let mut most = 0;
        let start = std::time::Instant::now();
        while batch.try_wait().unwrap().is_none() {
            most = most.max(testkit::processes::with_argument(&program));
            if start.elapsed() > Duration::from_mins(5) {
                batch.kill().unwrap();
                batch.wait().unwrap();
                panic!("the batch took over 5 minutes");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let book: Value =
            serde_json::from_str(&fs::read_to_string(scene.path("book.json")).unwrap()).unwrap();
        let students = book["students"].as_array().unwrap();
        let slept = students.iter().find(|s| s["student"] == name.as_str());
        let slept = slept.unwrap_or_else(|| panic!("{book:#}"));
        if slept["verdict"] == "--" {
            // A machine that held a run back twice left it ungraded: try again.
            continue;
        }
        // The first try of its first case slept on the pool's worker, which handed the
        // case over; on the doze lane the row's three cases slept side by side (a lane of
        // one worker shows one at a time), no more than its three workers.
        assert!((2..=3).contains(&most), "{most} of its runs at once");
        // The three of the row stopped it before any other of its cases started.
        assert_eq!(case_names(slept), ["001", "002", "003"], "{slept:#}");
        let stopped = slept["stopped"].as_str().unwrap();
        assert!(
            stopped.starts_with("stopped after 3 wall-limit TLEs in a row (001 to 003")
                && stopped.ends_with("3 cases not run (--, neither passed nor failed)"),
            "{stopped}"
        );
        return;
    }
    panic!("the sleeper was never graded");
}

#[test]
fn a_run_past_the_hand_over_point_is_made_again_in_full_and_judged_under_the_wall_limit() {
    let scene = Scene::new();
    // A student whose program sleeps 1.2 s, then answers right: past the hand-over point
    // (the 0.5 s CPU limit and 0.5 s more) but well within the 3 s wall limit.
    let honest = fs::read_to_string(fixture("flip/ac_rows.py")).unwrap();
    Class::at(scene.path("class"))
        .write("late.py", format!("import time\ntime.sleep(1.2)\n{honest}"));
    let mut book = Value::Null;
    for _ in 0..5 {
        let _ = fs::remove_dir_all(scene.path("out"));
        let output = scene
            .command()
            .args(["batch", "flip", "class", "--cases", "cases", "--out", "out"])
            .args(["--jobs", "1", "--time-limit", "0.5", "--wall-limit", "3"])
            .args(JSON)
            .output()
            .unwrap();
        book = serde_json::from_slice(&output.stdout).unwrap();
        if book["students"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["verdict"] != "--")
        {
            break;
        }
    }
    let student = |name: &str| {
        let students = book["students"].as_array().unwrap();
        students
            .iter()
            .find(|s| s["student"] == name)
            .unwrap()
            .clone()
    };
    // Killed at the point, it earned nothing there: made again in full, it answers.
    let late = student("late");
    assert_eq!(late["verdict"], "AC", "{late:#}");
    assert_eq!(late["passed"], 6, "{late:#}");
    // The sleeper's TLEs are the whole wall limit's, each from a settled run (or two in a
    // row), never the point's.
    let sleeper = student("sleeper");
    assert_eq!(sleeper["verdict"], "TLE", "{sleeper:#}");
    for case in sleeper["cases"].as_array().unwrap() {
        let message = case["message"].as_str().unwrap();
        assert!(
            message.starts_with("wall time over the 3 s limit"),
            "{message}"
        );
        let runs = case["stalls"].as_array().unwrap();
        assert!(
            runs.iter().all(|r| r["wall_ms"].as_f64().unwrap() > 2900.0),
            "{case}"
        );
        assert!(
            runs.len() >= 2 || runs.iter().all(|r| r["runnable"] == 0),
            "{case}"
        );
    }
    assert_eq!(student("honest")["verdict"], "AC");
}
