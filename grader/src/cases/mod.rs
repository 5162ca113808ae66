//! Case folders: discovery of `*.in` with their answers, the manifests that describe the
//! shipped folders, their deterministic and atomic regeneration, their verification, and
//! their test power against the classic wrong solutions.
//!
//! Layout (the ICPC/Kattis package layout): `ROOT/<problem>/manifest.toml` and
//! `ROOT/<problem>/data/{sample,secret/<group>}/NN.in|.ans`.

pub(crate) mod about;
pub(crate) mod find;
pub(crate) mod folder_check;
pub(crate) mod manifest;
pub(crate) mod plan;
pub(crate) mod points;
pub(crate) mod power;
pub(crate) mod regen;
pub(crate) mod sound;

mod location;

pub(crate) use location::{data_dir, folder};
