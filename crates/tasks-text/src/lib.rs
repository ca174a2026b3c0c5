//! `tasks-text`: pure text functions for the duplicate check and due-date parsing.
#![warn(missing_docs)]

pub mod amount;
pub mod dates;
pub mod lexicon;
pub mod normalize;
pub mod stems;
pub mod trigrams;
