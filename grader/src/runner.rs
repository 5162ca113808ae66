//! One worker's means of running a program on an input: its own launcher, its own
//! scratch folder (emptied before each run), the clean environment, and, when the grader
//! is root, the unprivileged user. Shared by `grade` (case folders) and `fuzz`.

use std::path::{Path, PathBuf};

use crate::exec::{Input, Launcher, Limits, Outcome, Spec};
use crate::scratch::Scratch;
use crate::status::Fault;
use crate::submission::{PATH, Program};

/// The uid and gid programs run as when the grader is root: `nobody`.
const NOBODY: (u32, u32) = (65534, 65534);

/// A launcher and a scratch folder for one worker.
#[derive(Debug)]
pub(crate) struct Runner {
    launcher: Launcher,
    scratch: Scratch,
    user: Option<(u32, u32)>,
}

impl Runner {
    /// Starts worker number `worker`'s launcher and makes its scratch folder in `parent`
    /// (a folder the run's user can enter: a program's staging folder).
    pub(crate) fn start(parent: &Path, worker: usize) -> Result<Runner, Fault> {
        let user = nix::unistd::geteuid().is_root().then_some(NOBODY);
        let launcher = Launcher::start()
            .map_err(|e| Fault::Internal(format!("cannot start a launcher: {e}")))?;
        let scratch = Scratch::create(parent, &format!("run-{worker}"), user)?;
        Ok(Runner {
            launcher,
            scratch,
            user,
        })
    }

    /// Runs `program` with `stdin` as standard input under `limits`, in the emptied
    /// scratch folder. `Err` only when the run cannot be made (a fault of the setup).
    pub(crate) fn run(
        &mut self,
        program: &Program,
        stdin: Input,
        limits: &Limits,
    ) -> Result<Outcome, Fault> {
        self.scratch.reset()?;
        let scratch = self.scratch.path();
        let spec = Spec {
            program: PathBuf::from(&program.argv[0]),
            argv: program.argv.clone(),
            env: vec![
                format!("PATH={PATH}"),
                format!("HOME={}", scratch.display()),
                format!("TMPDIR={}", scratch.display()),
                "LANG=C.UTF-8".to_owned(),
                "PYTHONDONTWRITEBYTECODE=1".to_owned(),
            ],
            dir: scratch.to_path_buf(),
            stdin,
            user: self.user,
        };
        self.launcher
            .run(&spec, limits)
            .map_err(|e| Fault::Usage(format!("{}: {e}", program.argv[0])))
    }
}
