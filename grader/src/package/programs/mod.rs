//! A package's programs, each run in the box: how they run there (`in_box`), its
//! submissions and validators built (`building`), its input validators
//! (`input_validators`; `checktestdata` for `.ctd` scripts), its answer validators
//! (`answer_validators`) and output validator (`output_validator`), the one judge of an
//! output every command uses (`output_judge`), the passes of a multi-pass problem
//! (`passes`), and its part of a fuzz run (`fuzz_trial`).

pub(crate) mod answer_validators;
pub(crate) mod building;
pub(crate) mod checktestdata;
pub(crate) mod fuzz_trial;
pub(crate) mod in_box;
pub(crate) mod input_validators;
pub(crate) mod interaction;
pub(crate) mod interaction_relay;
pub(crate) mod interaction_verdict;
pub(crate) mod output_judge;
pub(crate) mod output_validator;
pub(crate) mod passes;
