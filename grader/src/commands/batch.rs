//! `grader batch PROBLEM DIR`: grades a class folder into a gradebook, resuming from the
//! journal in the output folder.

use super::graded::{Asked, Graded};
use crate::batch::class::{self, Batch};
use crate::batch::class_build;
use crate::batch::journal::Journal;
use crate::batch::lang_for::LangChoices;
use crate::batch::students::{self, EntryRule, Layout, Student};
use crate::cases::find::Case;
use crate::cli::args::{BatchArgs, BatchLayout};
use crate::cli::exit::{Fault, Status};
use crate::paths::outputs::{self, Kind};
use crate::report::{self, gradebook_files, html};
use crate::submission::{Options, languages::Languages};

pub(crate) fn run(args: &BatchArgs) -> Result<Status, Fault> {
    // Everything the call names is checked before anything runs.
    let graded = Graded::read(&Asked {
        problem: &args.problem,
        cases: args.cases.as_deref(),
        limits: &args.limits,
        points: &args.points,
        config: args.config.as_deref(),
        cache_dir: args.cache_dir.as_deref(),
        jobs: args.jobs,
        graded: Some(&args.dir),
    })?;
    let cases: Vec<_> = graded
        .cases
        .iter()
        .map(|sound| sound.case.clone())
        .collect();
    let (points, unpriced) = graded.points.clone();
    if let Some(warning) = unpriced {
        crate::report::note(&format!("grader: warning: {warning}"));
    }
    let rule = EntryRule {
        pattern: args
            .entry
            .as_deref()
            .map(|p| glob::Pattern::new(p).map_err(|e| Fault::call(format!("--entry `{p}`: {e}"))))
            .transpose()?,
        layout: match args.layout {
            BatchLayout::Auto => Layout::Auto,
            BatchLayout::Folders => Layout::Folders,
            BatchLayout::Files => Layout::Files,
        },
    };
    let languages = Languages::load(args.config.as_deref())?;
    let students::Roster {
        mut students,
        skipped,
        warnings,
    } = students::discover(&args.dir, &languages, &rule)?;
    let choices = LangChoices::new(args.lang_for.clone(), &languages)?;
    for warning in warnings.iter().chain(&choices.warnings(&students)) {
        report::note(&format!("grader: warning: {warning}"));
    }
    if students.is_empty() {
        return Err(Fault::input(format!(
            "{}: no submissions in it ({} other files)",
            args.dir.display(),
            skipped.len()
        )));
    }
    if let Some(shard) = args.shard {
        students.retain(|s| shard.holds(&s.name));
    }
    check_outputs(args, &cases, &graded.folder, &students)?;
    let limits = graded.limits;
    let options = Options::new(&languages, None, args.cache_dir.clone(), limits.sandbox)
        .adding(graded.added());
    // A fault of the setup (an unwritable cache) is the call's, found before anyone is
    // graded: never every student's mark. A missing toolchain is only its students'.
    let missing = class_build::check_setup(&students, &options, &choices)?;
    warn_missing(&missing);
    // Held to the end, the gradebook's files written.
    let _hold = crate::batch::journal::hold(&args.out)?;
    let (journal, known) = Journal::open(&args.out.join(JOURNAL), limits.wall)?;
    if let Some(older) = journal.older() {
        let runs = if older == 1 { "run is" } else { "runs are" };
        report::note(&format!(
            "grader: note: {JOURNAL} was written by an older grader, whose keys this one \
             cannot match: its {older} {runs} made again, and the journal starts anew"
        ));
    }
    let rejudged = journal.rejudged();
    if rejudged > 0 {
        let runs = if rejudged == 1 { "run" } else { "runs" };
        let are = if rejudged == 1 { "is" } else { "are" };
        report::note(&format!(
            "grader: note: {rejudged} {runs} of {JOURNAL} {are} made again: a TLE at the wall \
             limit that does not show the program's own stall (judged by an older grader, or \
             held back by the machine) is no mark"
        ));
    }
    let batch = Batch {
        problem: graded.id.clone(),
        checker: graded.checker(),
        limits,
        jobs: super::flags::jobs(args.jobs),
        fail_fast: args.fail_fast_per_submission,
        sleepers: args.stop_after_wall_tles,
        options,
        choices,
        class: &args.dir,
        points,
        about: graded.about.clone(),
        missing,
        shard: args.shard.map(crate::batch::shard::Shard::record),
    };
    let class = (students.as_slice(), skipped.as_slice(), cases.as_slice());
    let passed = class::grade_class(&batch, class, journal, known, |book| {
        gradebook_files::write(book, &args.out, &args.feedback)?;
        gradebook_files::print(book, &args.out, args.report)?;
        Ok(book.passed(args.exit_zero_when_graded))
    })?;
    Ok(Status::failed_if(!passed))
}

/// One warning per missing toolchain, with how many students it leaves ungraded, before
/// the class is graded.
fn warn_missing(missing: &std::collections::BTreeMap<String, String>) {
    let mut by_reason: std::collections::BTreeMap<&str, Vec<&str>> =
        std::collections::BTreeMap::new();
    for (student, why) in missing {
        by_reason.entry(why).or_default().push(student);
    }
    for (why, students) in by_reason {
        let who = match students.as_slice() {
            [one] => format!("student {one}"),
            [first, rest @ ..] => format!("{} students ({first} and others)", rest.len() + 1),
            [] => continue,
        };
        report::note(&format!("grader: warning: {who} not graded: {why}"));
    }
}

/// The journal's name in the output folder.
const JOURNAL: &str = "journal.jsonl";

/// The rule of outputs (`outputs`) for `--out`, its gradebook and its journal, and for the
/// `--feedback` pages, before any student is built: nothing of the class, the cases or a
/// language table is written over.
fn check_outputs(
    args: &BatchArgs,
    cases: &[Case],
    folder: &std::path::Path,
    students: &[Student],
) -> Result<(), Fault> {
    let mut inputs = super::flags::inputs(None, cases);
    inputs.add(&args.dir, "class folder");
    inputs.add(folder, "case folder");
    if let Some(path) = &args.config {
        inputs.add(path, "language table");
    }
    for student in students {
        inputs.add(&student.entry, "source of a student");
    }
    let mut files = gradebook_files::outputs();
    files.push((JOURNAL, Kind::Journal));
    outputs::folder(&args.out, &files, &inputs)?;
    if let Some(dir) = &args.feedback.feedback {
        let names = students.iter().map(|s| s.name.as_str());
        html::feedback::check(dir, &args.out, names, &inputs)?;
    }
    Ok(())
}
