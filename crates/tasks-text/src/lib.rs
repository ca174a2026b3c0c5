//! `tasks-text`: pure text functions for the duplicate check and due-date parsing.
#![warn(missing_docs)]

pub mod normalize;
pub mod stems;
pub mod trigrams;
pub mod amount;
pub mod dates;
