//! Recall: cited search over the journal, every fact and every transcript.
