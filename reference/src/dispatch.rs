//! The one `match` that hands a problem value to its [`Puzzle`] implementation: every
//! method of [`Problem`] that does a problem's work (validate, solve, check, explain,
//! generate, fuzz, shrink, mutants) is here; `problem.rs` only names the problems.

use crate::compare::Judgement;
use crate::explain::judge::{self, Explain};
use crate::explain::model::Explanation;
use crate::flip::Flip;
use crate::fourinrow::FourInRow;
use crate::problem::{CheckError, Problem};
use crate::puzzle::{KindDoc, Puzzle};
use crate::rng::Rng;
use crate::swap::Swap;
use crate::text::ParseError;

/// Runs `$body` with `$P` standing for the [`Puzzle`] type of `$problem`: the one `match`
/// from problem values to puzzle types.
macro_rules! with_puzzle {
    ($problem:expr, $P:ident => $body:expr) => {
        match $problem {
            Problem::Flip => {
                type $P = Flip;
                $body
            }
            Problem::FourInRow => {
                type $P = FourInRow;
                $body
            }
            Problem::Swap => {
                type $P = Swap;
                $body
            }
        }
    };
}

impl Problem {
    /// Validates an input strictly per problems.md.
    pub fn validate(self, input: &[u8]) -> Result<(), ParseError> {
        with_puzzle!(self, P => P::parse(input).map(drop))
    }

    /// The reference answer for an input, exactly as a correct contestant prints it.
    pub fn solve(self, input: &[u8]) -> Result<String, ParseError> {
        with_puzzle!(self, P => Ok(P::solve(&P::parse(input)?).to_string()))
    }

    /// Judges `output` for `input`. The correct answer comes from `answer` (an answer
    /// file) when given, otherwise from the reference solver.
    pub fn check(
        self,
        input: &[u8],
        answer: Option<&[u8]>,
        output: &[u8],
    ) -> Result<Judgement, CheckError> {
        with_puzzle!(self, P => {
            let board = P::parse(input).map_err(CheckError::Input)?;
            let answer = match answer {
                Some(text) => P::parse_answer(&board, text).map_err(CheckError::Answer)?,
                None => P::solve(&board),
            };
            Ok(P::check(&board, &answer, output))
        })
    }
    /// Checks that an answer file is well-formed and correct for `input`: for `flip` and
    /// `fourinrow` it must be the reference answer, for `swap` any minimum sequence.
    pub fn verify_answer(self, input: &[u8], answer: &[u8]) -> Result<(), CheckError> {
        with_puzzle!(self, P => {
            let board = P::parse(input).map_err(CheckError::Input)?;
            P::parse_answer(&board, answer).map_err(CheckError::Answer)?;
            let judgement = P::check(&board, &P::solve(&board), answer);
            if judgement.verdict == crate::Verdict::Accepted {
                Ok(())
            } else {
                Err(CheckError::Wrong(judgement.message))
            }
        })
    }

    /// Why `output` is wrong for `input`, with the reference's witness; `None` when it is
    /// accepted. `PE` is explained by its layout fault (see [`crate::explain`]).
    pub fn explain(self, input: &[u8], output: &[u8]) -> Result<Option<Explanation>, ParseError> {
        with_puzzle!(self, P => Ok(judge::explain::<P>(&P::parse(input)?, output)))
    }

    /// The reference's explanation of the answer of `input`: a minimum solution, or why
    /// there is none.
    pub fn witness(self, input: &[u8]) -> Result<Explanation, ParseError> {
        with_puzzle!(self, P => Ok(<P as Explain>::witness(&P::parse(input)?)))
    }

    /// The kinds of generated input this problem offers.
    pub fn kinds(self) -> &'static [KindDoc] {
        with_puzzle!(self, P => P::KINDS)
    }

    /// Checks a kind's spelling (`answer=4`), saying what was expected when it is wrong.
    pub fn parse_kind(self, kind: &str) -> Result<(), String> {
        with_puzzle!(self, P => kind.parse::<<P as Puzzle>::Kind>().map(drop))
    }

    /// Draws one input of `kind`, as clean input text.
    pub fn generate(self, kind: &str, rng: &mut Rng) -> Result<String, String> {
        with_puzzle!(self, P => {
            let kind = kind.parse::<<P as Puzzle>::Kind>()?;
            Ok(P::generate(&kind, rng).to_string())
        })
    }

    /// The kinds a fuzzer cycles through, rare classes first (see [`Puzzle::FUZZ_MIX`]):
    /// one cycle of the problem's mix table, each kind as often as its share (see
    /// [`crate::puzzle::schedule`]).
    pub fn fuzz_mix(self) -> &'static [&'static str] {
        with_puzzle!(self, P => P::FUZZ_MIX)
    }

    /// The fuzz mix's shares: each kind it draws (`answer=2`) with its runs in one cycle of
    /// [`Problem::fuzz_mix`], in the order the cycle first draws them. A share is the runs
    /// over the cycle's length; the shares sum to 1.
    pub fn fuzz_shares(self) -> Vec<(&'static str, usize)> {
        let mut shares: Vec<(&'static str, usize)> = Vec::new();
        for &kind in self.fuzz_mix() {
            match shares.iter_mut().find(|(k, _)| *k == kind) {
                Some((_, runs)) => *runs += 1,
                None => shares.push((kind, 1)),
            }
        }
        shares
    }

    /// Each documented kind ([`Problem::kinds`]: `answer=N` stands for every answer) with
    /// its runs in one cycle of the fuzz mix; every one keeps at least
    /// [`Problem::fuzz_floor`] of the cycle.
    pub fn fuzz_shares_by_kind(self) -> Vec<(KindDoc, usize)> {
        self.kinds()
            .iter()
            .map(|doc| {
                let runs = self.fuzz_mix().iter().filter(|k| doc.covers(k)).count();
                (*doc, runs)
            })
            .collect()
    }

    /// The least share of the fuzz runs each documented kind keeps, as a fraction: half of
    /// an even split over [`Problem::kinds`] (see [`crate::puzzle::floor`]).
    pub fn fuzz_floor(self) -> (u64, u64) {
        crate::puzzle::floor(self.kinds().len())
    }

    /// Simpler neighbours of an input, as clean input text, for shrinking.
    pub fn shrink(self, input: &[u8]) -> Result<Vec<String>, ParseError> {
        with_puzzle!(self, P => Ok(P::shrink(&P::parse(input)?).iter().map(ToString::to_string).collect()))
    }

    /// How big an input is, smaller first (see [`Puzzle::size`]).
    pub fn size(self, input: &[u8]) -> Result<(u64, u64), ParseError> {
        with_puzzle!(self, P => Ok(P::size(&P::parse(input)?)))
    }

    /// Every valid input, as clean text, when the space is enumerable (`flip`: 65,536
    /// boards; `fourinrow`: 411,840); `None` for `swap`.
    pub fn enumerate(self) -> Option<Box<dyn Iterator<Item = String>>> {
        with_puzzle!(self, P => P::enumerate().map(|all| Box::new(all.map(|b| b.to_string())) as Box<dyn Iterator<Item = String>>))
    }

    /// The wrong solutions: name and description of each, the classic ones first, then
    /// the held-apart ones (see [`Problem::is_held_apart`]).
    pub fn mutants(self) -> Vec<(&'static str, &'static str)> {
        with_puzzle!(self, P => P::MUTANTS.iter().chain(P::HELD_APART).map(|m| (m.name, m.about)).collect())
    }

    /// Whether mutant number `index` (of [`Problem::mutants`]) is held apart: written
    /// after the fuzz mix and never used to tune it ([`Puzzle::HELD_APART`]).
    pub fn is_held_apart(self, index: usize) -> bool {
        with_puzzle!(self, P => index >= P::MUTANTS.len())
    }

    /// The output of mutant number `index` (of [`Problem::mutants`]) for `input`.
    ///
    /// # Panics
    /// If there is no such mutant (callers take indices from [`Problem::mutants`]).
    pub fn run_mutant(self, index: usize, input: &[u8]) -> Result<String, ParseError> {
        with_puzzle!(self, P => {
            let mutant = crate::puzzle::mutant::<P>(index).expect("a mutant index from `mutants`");
            Ok((mutant.run)(&P::parse(input)?))
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::problem::Problem;
    use crate::puzzle::KindDoc;

    #[test]
    fn every_fuzz_kind_parses_and_belongs_to_exactly_one_documented_kind() {
        for problem in Problem::ALL {
            for kind in problem.fuzz_mix() {
                assert_eq!(problem.parse_kind(kind), Ok(()), "{problem} {kind}");
                let owners = problem.kinds().iter().filter(|d| d.covers(kind)).count();
                assert_eq!(owners, 1, "{problem} {kind}: documented {owners} times");
            }
        }
    }

    #[test]
    fn every_documented_kind_keeps_its_floor_share_of_the_fuzz_runs() {
        for problem in Problem::ALL {
            let cycle = problem.fuzz_mix().len() as u64;
            let (num, den) = problem.fuzz_floor();
            assert_eq!((num, den), (1, 2 * problem.kinds().len() as u64));
            for (doc, runs) in problem.fuzz_shares_by_kind() {
                // runs / cycle >= num / den, without rounding.
                assert!(
                    runs as u64 * den >= num * cycle,
                    "{problem}: kind {} has {runs} of {cycle} runs, under its floor {num}/{den}",
                    doc.name
                );
            }
        }
    }

    #[test]
    fn the_shares_sum_to_one_over_the_kinds_and_over_the_documented_kinds() {
        for problem in Problem::ALL {
            let cycle = problem.fuzz_mix().len();
            let shares = problem.fuzz_shares();
            assert_eq!(shares.iter().map(|(_, runs)| runs).sum::<usize>(), cycle);
            let by_kind = problem.fuzz_shares_by_kind();
            assert_eq!(by_kind.iter().map(|(_, runs)| runs).sum::<usize>(), cycle);
            let total: f64 = shares.iter().map(|(_, r)| *r as f64 / cycle as f64).sum();
            assert!((total - 1.0).abs() < 1e-12, "{problem}: {total}");
        }
    }

    #[test]
    fn a_documented_kind_covers_its_spellings_only() {
        let doc = |name| KindDoc { name, about: "" };
        assert!(doc("answer=N").covers("answer=3"));
        assert!(doc("solved=LINE-C").covers("solved=row-B"));
        assert!(!doc("answer=N").covers("answers=3"));
        assert!(doc("colour=b").covers("colour=b"));
        assert!(!doc("colour=b").covers("colour=w"));
        assert!(doc("hardest").covers("hardest"));
        assert!(!doc("hardest").covers("hardest=1"));
    }
}
