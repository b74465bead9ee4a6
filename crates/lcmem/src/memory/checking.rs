//! What `lcmem doctor` asks of a project's memory: what waits to be sealed,
//! what the agents' folders hold that was never taken in, and stored
//! sessions with lines that are not JSON (and their repair).

use std::path::PathBuf;

use super::Memory;
use crate::agents::Source;
use crate::error::Result;
use crate::import::Found;
use crate::repair::Malformed;

impl Memory {
    /// The model lane the settings choose, and whether it can run.
    pub fn lane_status(&self) -> Result<crate::LaneStatus> {
        Ok(crate::extract::lane::status(&self.store.settings()?.extract))
    }

    /// What the model lane's seals cost, day by day, as `journal` records.
    pub fn spend_by_day(journal: &crate::journal::Journal) -> Vec<crate::DaySpend> {
        crate::extract::lane::cost::by_day(journal)
    }

    /// The sessions not sealed yet, and those that went on since they were.
    pub fn waiting_to_seal(&self) -> Result<Vec<String>> {
        crate::ingest::unsealed(&self.store)
    }

    /// This project's transcripts in `agents`' folders that no import or
    /// hook ever took in.
    pub fn never_taken_in(&self, agents: &[(&'static dyn Source, PathBuf)]) -> Vec<Found> {
        crate::catch_up::never_taken_in(&self.store, agents)
    }

    /// The stored sessions holding lines that are not JSON, with those lines.
    pub fn malformed(&self) -> Result<Vec<Malformed>> {
        crate::repair::malformed(&self.store)
    }

    /// Moves the lines that are not JSON out of the sessions [`Memory::malformed`]
    /// found, into the `.torn` file beside each; how many lines moved.
    pub fn set_aside_malformed(&self, found: &[Malformed]) -> Result<usize> {
        let mut moved = 0;
        for m in found {
            moved += crate::repair::set_aside_malformed(&self.store, &m.session)?;
        }
        Ok(moved)
    }
}
